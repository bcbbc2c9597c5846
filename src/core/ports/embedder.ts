/** Progress of a model load or a batch job, as a tagged union. */
export type EmbedProgress =
  | { type: 'loading'; file: string; loadedBytes: number; totalBytes: number }
  | { type: 'ready'; modelId: string; device: 'webgpu' | 'wasm' | 'cpu' }
  | { type: 'embedding'; done: number; total: number };

/**
 * Turns text into vectors. Passages and queries are embedded separately because many models
 * want different prefixes for each (e5: `passage:` / `query:`; bge: a query instruction).
 */
export interface Embedder {
  readonly modelId: string;
  readonly dimension: number;
  embedPassages(texts: string[], onProgress?: (p: EmbedProgress) => void): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
}
