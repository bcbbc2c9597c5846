/// <reference lib="webworker" />
// The backup worker (X187): reads, decrypts, parses and validates a backup file off the page.
import type { RpcEndpoint } from '../rpc/protocol';
import { serveRpc } from '../rpc/serve-rpc';
import { createBackupHandlers } from './backup-handlers';

serveRpc(self as unknown as RpcEndpoint, createBackupHandlers());
