// A worker thread does not inherit the parent's TypeScript loader: register it, then run the
// worker (embed-worker-thread.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./embed-worker-thread.ts', import.meta.url);
