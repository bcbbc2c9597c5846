/// <reference lib="webworker" />
// The document worker (X177): reads, hashes, parses and chunks text, Markdown and HTML imports.
import type { RpcEndpoint } from '../rpc/protocol';
import { serveRpc } from '../rpc/serve-rpc';
import { createDocumentHandlers } from './document-handlers';

serveRpc(self as unknown as RpcEndpoint, createDocumentHandlers());
