import { describe, expect, it } from 'vitest';
import { probeWebGpu } from './webgpu-probe';

const limits = {
  maxBufferSize: 268435456,
  maxStorageBufferBindingSize: 134217728,
  maxComputeWorkgroupStorageSize: 16384,
};

describe('probeWebGpu', () => {
  it('P1: reports no_webgpu when navigator.gpu is missing', async () => {
    expect(await probeWebGpu({})).toEqual({ type: 'no_webgpu' });
  });

  it('P2: reports no_adapter when requestAdapter resolves null', async () => {
    expect(await probeWebGpu({ gpu: { requestAdapter: async () => null } })).toEqual({
      type: 'no_adapter',
    });
  });

  it('P3: reads isFallbackAdapter, features and limits from a SwiftShader-like adapter', async () => {
    const adapter = {
      features: new Set<string>(),
      limits,
      info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true },
    };
    const probe = await probeWebGpu({ gpu: { requestAdapter: async () => adapter } });
    expect(probe).toMatchObject({
      type: 'adapter',
      isFallback: true,
      shaderF16: false,
      vendor: 'google',
      maxStorageBufferBindingSize: 134217728,
    });
  });

  it('P6: a throwing requestAdapter becomes an error probe, not a crash', async () => {
    const probe = await probeWebGpu({
      gpu: {
        requestAdapter: async () => {
          throw new Error('blocked by policy');
        },
      },
    });
    expect(probe).toEqual({ type: 'error', message: 'blocked by policy' });
  });
});
