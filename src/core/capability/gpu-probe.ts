/**
 * What the WebGPU probe found on this device. The probe itself runs in an adapter
 * (`src/adapters/gpu/webgpu-probe.ts`); this module only holds its shape and the decision of
 * what the device can do, so the decision is testable in Node.
 */
export type GpuProbe =
  | { type: 'no_webgpu' }
  | { type: 'no_adapter' }
  | { type: 'error'; message: string }
  | {
      type: 'adapter';
      /** SwiftShader and other software fallbacks report `isFallbackAdapter`. */
      isFallback: boolean;
      vendor: string;
      architecture: string;
      description: string;
      shaderF16: boolean;
      maxBufferSize: number;
      maxStorageBufferBindingSize: number;
      maxComputeWorkgroupStorageSize: number;
    };

/** How the local LLM can run here. */
export type LlmSupport =
  | { type: 'none'; reason: 'no_webgpu' | 'no_adapter' | 'software_adapter' | 'probe_failed' }
  | { type: 'gpu'; quantization: 'q4f16_1' | 'q4f32_1'; maxBufferBytes: number };

/** Where the embedding model runs here: a real GPU when there is one, WASM otherwise. */
export type EmbedderDevice = 'webgpu' | 'wasm';

export interface DeviceVerdict {
  llm: LlmSupport;
  embedder: EmbedderDevice;
  /** Plain sentences for the first screen: what works here and what to do. */
  headline: string;
  details: string[];
}

// Buffers below this cannot hold the weight shards of even the smallest chat models; the
// WebGPU spec's minimum for maxStorageBufferBindingSize is 128 MiB.
const MIN_LLM_BUFFER_BYTES = 128 * 1024 * 1024;

/** Decides what the device can run from a probe result (rules P1–P5 in docs/SPEC.md). */
export function judgeDevice(probe: GpuProbe): DeviceVerdict {
  switch (probe.type) {
    case 'no_webgpu':
      return {
        llm: { type: 'none', reason: 'no_webgpu' },
        embedder: 'wasm',
        headline: 'This browser has no WebGPU, so GPU chat models cannot run here; CPU models can.',
        details: [
          'Use a recent Chrome, Edge or another WebGPU-capable browser to chat with the local model.',
          'Memory, documents and search still work here: the embedding model runs on the CPU (WASM).',
        ],
      };
    case 'no_adapter':
      return {
        llm: { type: 'none', reason: 'no_adapter' },
        embedder: 'wasm',
        headline:
          'WebGPU is present but no GPU is available, so GPU chat models cannot run; CPU models can.',
        details: [
          'Your GPU may be blocked or disabled: check that hardware acceleration is on, update the GPU driver, or try another browser.',
          'Memory, documents and search still work here: the embedding model runs on the CPU (WASM).',
        ],
      };
    case 'error':
      return {
        llm: { type: 'none', reason: 'probe_failed' },
        embedder: 'wasm',
        headline: 'Checking the GPU failed, so the local chat model is off.',
        details: [
          `The browser said: ${probe.message}`,
          'Memory, documents and search still work here: the embedding model runs on the CPU (WASM).',
        ],
      };
    case 'adapter':
      if (probe.isFallback) {
        return {
          llm: { type: 'none', reason: 'software_adapter' },
          embedder: 'webgpu',
          headline:
            'Only a software GPU (no real graphics hardware) is available, far too slow for GPU chat models; CPU models can run.',
          details: [
            'GPU chat models stay off on a software adapter: chat with a CPU model, or use a device with a real GPU.',
            'Memory, documents and search work here; the embedding model can use the software adapter.',
          ],
        };
      }
      return judgeRealAdapter(probe);
  }
}

function judgeRealAdapter(probe: Extract<GpuProbe, { type: 'adapter' }>): DeviceVerdict {
  const maxBufferBytes = Math.min(probe.maxBufferSize, probe.maxStorageBufferBindingSize);
  const quantization = probe.shaderF16 ? 'q4f16_1' : 'q4f32_1';
  const gpuName = [probe.vendor, probe.architecture].filter(Boolean).join(' ') || 'a GPU';
  const details = [
    probe.shaderF16
      ? 'The GPU supports 16-bit shaders (shader-f16): the smaller, faster q4f16 model builds run here.'
      : 'The GPU has no 16-bit shaders (shader-f16): Loci uses the q4f32 model builds, which need more memory.',
    `Largest GPU buffer: ${formatMiB(maxBufferBytes)}.`,
  ];
  if (maxBufferBytes < MIN_LLM_BUFFER_BYTES) {
    return {
      llm: { type: 'none', reason: 'no_adapter' },
      embedder: 'webgpu',
      headline: `${gpuName} was found, but its buffers are too small for any chat model.`,
      details,
    };
  }
  return {
    llm: { type: 'gpu', quantization, maxBufferBytes },
    embedder: 'webgpu',
    headline: `${gpuName} is ready: the chat model and the embedding model run on it, on this device only.`,
    details,
  };
}

function formatMiB(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}
