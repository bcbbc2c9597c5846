import type { GpuProbe } from '../../core/capability/gpu-probe';

interface GpuAdapterInfoLike {
  vendor?: string;
  architecture?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

interface GpuAdapterLike {
  features: { has(name: string): boolean };
  limits: {
    maxBufferSize: number;
    maxStorageBufferBindingSize: number;
    maxComputeWorkgroupStorageSize: number;
  };
  info?: GpuAdapterInfoLike;
  /** Older Chromium exposed this on the adapter itself. */
  isFallbackAdapter?: boolean;
}

interface GpuLike {
  requestAdapter(options?: { powerPreference?: string }): Promise<GpuAdapterLike | null>;
}

/**
 * Probes WebGPU the way the LLM engine will need it, before any model download (web-llm
 * itself fetches config and libraries before it checks the GPU, so without this a user with no
 * GPU would only see "Failed to fetch").
 */
export async function probeWebGpu(
  nav: { gpu?: unknown } = navigator as { gpu?: unknown },
): Promise<GpuProbe> {
  const gpu = nav.gpu as GpuLike | undefined;
  if (!gpu || typeof gpu.requestAdapter !== 'function') return { type: 'no_webgpu' };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { type: 'no_adapter' };
    const info = adapter.info ?? {};
    return {
      type: 'adapter',
      isFallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter),
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      description: info.description ?? '',
      shaderF16: adapter.features.has('shader-f16'),
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
    };
  } catch (error) {
    return { type: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
