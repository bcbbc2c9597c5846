/**
 * The CPU chat models (GGUF, run by llama.cpp in WebAssembly): small instruct builds at Q4_K_M
 * that fit in a browser tab's memory and under wllama's 2 GB per-file limit, so none needs
 * splitting (rule E48, ADR 0113). Sizes are the file sizes the model hosts list; the download
 * shows the real total from the server once it starts.
 */
import type { Tokens } from '../units';

export interface CpuModelRecord {
  /** Loci's id for the model (never a web-llm id). */
  modelId: string;
  label: string;
  paramsB: number;
  /** The GGUF file URLs, in order (one file each today). */
  urls: string[];
  /** Download size in bytes. */
  downloadBytes: number;
  /** `n_ctx` Loci loads it with. */
  contextWindow: Tokens;
  /** Where the size and URL come from. */
  source: string;
  /**
   * Which model to recommend among those that run well, lower first (rule E50, ADR 0113: Qwen2.5
   * follows JSON schemas well and covers Chinese and English); absent: after the ranked ones.
   */
  preference?: number;
}

const HF = 'https://huggingface.co';
const MB = 1_000_000;

export const CPU_MODELS: readonly CpuModelRecord[] = [
  {
    modelId: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF',
    preference: 3,
    label: 'Qwen2.5 0.5B (CPU)',
    paramsB: 0.5,
    urls: [`${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf`],
    downloadBytes: 491 * MB,
    contextWindow: 4096,
    source: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF file list',
  },
  {
    modelId: 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF',
    preference: 2,
    label: 'Llama 3.2 1B (CPU)',
    paramsB: 1.2,
    urls: [
      `${HF}/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf`,
    ],
    downloadBytes: 808 * MB,
    contextWindow: 4096,
    source: 'bartowski/Llama-3.2-1B-Instruct-GGUF file list',
  },
  {
    modelId: 'Qwen2.5-1.5B-Instruct-Q4_K_M-GGUF',
    preference: 1,
    label: 'Qwen2.5 1.5B (CPU)',
    paramsB: 1.5,
    urls: [`${HF}/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf`],
    downloadBytes: 1117 * MB,
    contextWindow: 4096,
    source: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF file list',
  },
  {
    modelId: 'SmolLM2-1.7B-Instruct-Q4_K_M-GGUF',
    preference: 4,
    label: 'SmolLM2 1.7B (CPU)',
    paramsB: 1.7,
    urls: [
      `${HF}/bartowski/SmolLM2-1.7B-Instruct-GGUF/resolve/main/SmolLM2-1.7B-Instruct-Q4_K_M.gguf`,
    ],
    downloadBytes: 1056 * MB,
    contextWindow: 4096,
    source: 'bartowski/SmolLM2-1.7B-Instruct-GGUF file list',
  },
];
