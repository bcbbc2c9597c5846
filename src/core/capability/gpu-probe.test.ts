import { describe, expect, it } from 'vitest';
import { judgeDevice, type GpuProbe } from './gpu-probe';

const realGpu = (over: Partial<Extract<GpuProbe, { type: 'adapter' }>> = {}): GpuProbe => ({
  type: 'adapter',
  isFallback: false,
  vendor: 'nvidia',
  architecture: 'ampere',
  description: '',
  shaderF16: true,
  maxBufferSize: 2 ** 31,
  maxStorageBufferBindingSize: 2 ** 30,
  maxComputeWorkgroupStorageSize: 32768,
  ...over,
});

describe('judgeDevice', () => {
  it('P1: no navigator.gpu turns the LLM off, keeps WASM embeddings, and names a browser', () => {
    const verdict = judgeDevice({ type: 'no_webgpu' });
    expect(verdict.llm).toEqual({ type: 'none', reason: 'no_webgpu' });
    expect(verdict.embedder).toBe('wasm');
    expect(verdict.details.join(' ')).toMatch(/Chrome|Edge/);
    expect(verdict.details.join(' ')).toMatch(/Memory, documents and search still work/);
  });

  it('P2: a null adapter is "no GPU available" with advice', () => {
    const verdict = judgeDevice({ type: 'no_adapter' });
    expect(verdict.llm).toEqual({ type: 'none', reason: 'no_adapter' });
    expect(verdict.embedder).toBe('wasm');
    expect(verdict.details[0]).toMatch(/hardware acceleration/);
  });

  it('P3: a software fallback adapter never runs the LLM but may run the embedder', () => {
    const verdict = judgeDevice(realGpu({ isFallback: true, shaderF16: false }));
    expect(verdict.llm).toEqual({ type: 'none', reason: 'software_adapter' });
    expect(verdict.embedder).toBe('webgpu');
    expect(verdict.headline).toMatch(/software GPU/);
  });

  it('P4: shader-f16 selects q4f16 builds; without it, q4f32', () => {
    expect(judgeDevice(realGpu()).llm).toMatchObject({ type: 'gpu', quantization: 'q4f16_1' });
    expect(judgeDevice(realGpu({ shaderF16: false })).llm).toMatchObject({
      type: 'gpu',
      quantization: 'q4f32_1',
    });
  });

  it('P4: the usable buffer is the smaller of the two limits', () => {
    const verdict = judgeDevice(
      realGpu({ maxBufferSize: 2 ** 32, maxStorageBufferBindingSize: 2 ** 29 }),
    );
    expect(verdict.llm).toMatchObject({ type: 'gpu', maxBufferBytes: 2 ** 29 });
    expect(verdict.details.join(' ')).toContain('512 MiB');
  });

  it('P5: buffers under 128 MiB cannot hold any chat model', () => {
    const verdict = judgeDevice(realGpu({ maxStorageBufferBindingSize: 64 * 1024 * 1024 }));
    expect(verdict.llm.type).toBe('none');
    expect(verdict.headline).toMatch(/too small/);
  });

  it('P6: a probe that threw reports the browser message', () => {
    const verdict = judgeDevice({ type: 'error', message: 'adapter request blocked' });
    expect(verdict.llm).toEqual({ type: 'none', reason: 'probe_failed' });
    expect(verdict.details[0]).toContain('adapter request blocked');
  });
});
