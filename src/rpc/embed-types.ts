/**
 * The data the embed worker's protocol carries (its handler map is `embed-api.ts`): plain shapes
 * that both the worker's adapters and the main thread use. They live here because `src/rpc`
 * imports nothing from `src/adapters` (rule W8); the adapters re-export them.
 */

/** One embedding model of the registry (`src/adapters/embed/embed-models.ts`). */
export interface EmbedModelSpec {
  /** Hugging Face repo id (or the fixture's local folder name). */
  id: string;
  label: string;
  dimension: number;
  pooling: 'mean' | 'cls';
  /** All registry models are trained for cosine similarity of L2-normalised vectors. */
  normalize: boolean;
  queryPrefix: string;
  passagePrefix: string;
  /** Approximate download of the q8 ONNX weights + tokenizer, for the UI. */
  downloadBytes: number;
  /** Languages it handles well, in plain words for the UI. */
  languages: string;
  /** dtype per device: q8 is fast on WASM; WebGPU runs fp32 (its q8 kernels are incomplete). */
  dtype: { wasm: 'q8' | 'fp32'; webgpu: 'fp32' | 'fp16' };
  /** True for models served from the app itself (the test fixture): never fetched remotely. */
  local?: boolean;
}

/** Where transformers.js runs the embedding model. */
export type EmbedDevice = 'webgpu' | 'wasm' | 'cpu';

export interface TransformersEnvOptions {
  /** Where local models live: a path (`/models/`) in browsers, a directory in Node. */
  localModelPath?: string;
  /** False in tests and the e2e build: nothing may be fetched from the Hub. */
  allowRemoteModels: boolean;
  /** Base URL of the self-hosted ONNX Runtime files (`…/ort/`); browsers only. */
  ortBaseUrl?: string;
}
