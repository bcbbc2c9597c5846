/// <reference lib="webworker" />
// The backup worker (X187): reads, decrypts, parses and validates a backup file off the page.
import { holdLifeLock } from '../rpc/life-lock';
import type { RpcEndpoint } from '../rpc/protocol';
import { serveRpc } from '../rpc/serve-rpc';
import { createBackupHandlers } from './backup-handlers';

// Held until this worker ends, so the page learns of a death that fires no `error` (X241).
holdLifeLock(self);
serveRpc(self as unknown as RpcEndpoint, createBackupHandlers());
