import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { judgeDevice, type GpuProbe } from '../capability/gpu-probe';
import { buildCatalog, deviceVramBudgetMB, estimateDownloadBytes } from './build-catalog';
import { pickDefaultModel } from './pick-default-model';

const GiB = 1024 ** 3;
const records = prebuiltAppConfig.model_list;

function adapter(overrides: Partial<Extract<GpuProbe, { type: 'adapter' }>>): GpuProbe {
  return {
    type: 'adapter',
    isFallback: false,
    vendor: 'test',
    architecture: 'gpu',
    description: '',
    shaderF16: true,
    maxBufferSize: 2 * GiB,
    maxStorageBufferBindingSize: 2 * GiB,
    maxComputeWorkgroupStorageSize: 32768,
    ...overrides,
  };
}

const devices = {
  noWebgpu: judgeDevice({ type: 'no_webgpu' }),
  noAdapter: judgeDevice({ type: 'no_adapter' }),
  software: judgeDevice(adapter({ isFallback: true, shaderF16: false })),
  f16: judgeDevice(adapter({})),
  f32: judgeDevice(adapter({ shaderF16: false })),
  small: judgeDevice(
    adapter({ maxBufferSize: 512 * 1024 ** 2, maxStorageBufferBindingSize: 512 * 1024 ** 2 }),
  ),
};

describe('model catalog from web-llm prebuiltAppConfig', () => {
  it('E1: lists small instruct chat models of the recommended families, one entry each', () => {
    const ids = buildCatalog(records, devices.f16).map((e) => e.baseId);
    for (const expected of [
      'Qwen2.5-0.5B-Instruct',
      'Qwen2.5-1.5B-Instruct',
      'Qwen2.5-3B-Instruct',
      'Qwen3-0.6B',
      'Qwen3-1.7B',
      'Qwen3-4B',
      'Llama-3.2-1B-Instruct',
      'Llama-3.2-3B-Instruct',
      'Phi-3.5-mini-instruct',
      'SmolLM2-1.7B-Instruct',
      'gemma-2-2b-it',
    ]) {
      expect(ids).toContain(expected);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Big models, embeddings, fine-tunes, 1k-window and unquantized builds are left out.
    expect(ids.some((id) => /8B|Hermes|snowflake|jpn|q0f/i.test(id))).toBe(false);
    for (const entry of buildCatalog(records, devices.f16)) {
      expect(entry.paramsB).toBeLessThanOrEqual(4);
      expect(entry.contextWindow).toBeGreaterThanOrEqual(4096);
      expect(entry.vramMB).toBeGreaterThan(0);
      expect(entry.downloadBytes).toBeGreaterThan(50e6);
    }
  });

  it('E2: a shader-f16 GPU gets q4f16 builds; without f16 the q4f32 build is chosen', () => {
    const f16 = buildCatalog(records, devices.f16);
    const f32 = buildCatalog(records, devices.f32);
    expect(f16.every((e) => e.quantization === 'q4f16_1')).toBe(true);
    const qwen = f32.find((e) => e.baseId === 'Qwen2.5-1.5B-Instruct');
    expect(qwen?.modelId).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(qwen?.alternateModelId).toBe('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    expect(qwen?.vramMB).toBe(1889);
    expect(f32.every((e) => e.quantization === 'q4f32_1' || e.verdict.type === 'wont_run')).toBe(
      true,
    );
  });

  it('E3: with no WebGPU, no adapter or only a software adapter, every model is "won\'t run" with the reason', () => {
    for (const [device, words] of [
      [devices.noWebgpu, /no WebGPU/],
      [devices.noAdapter, /No usable GPU/],
      [devices.software, /software GPU/],
    ] as const) {
      const entries = buildCatalog(records, device);
      expect(entries.length).toBeGreaterThan(5);
      for (const e of entries) {
        expect(e.verdict.type).toBe('wont_run');
        expect(e.verdict.reason).toMatch(words);
      }
      expect(pickDefaultModel(entries)).toBeNull();
    }
  });

  it("E4: VRAM need against the buffer-limit budget decides runs well / may be slow / won't run", () => {
    expect(deviceVramBudgetMB(2 * GiB)).toBe(4096);
    const big = buildCatalog(records, devices.f16);
    const byId = (id: string) => big.find((e) => e.baseId === id)?.verdict.type;
    expect(byId('Qwen2.5-0.5B-Instruct')).toBe('runs_well'); // 945 MB of a 4096 MB budget
    expect(byId('Qwen3-4B')).toBe('may_be_slow'); // 3432 MB
    const small = buildCatalog(records, devices.small); // 1024 MB budget
    const smallById = (id: string) => small.find((e) => e.baseId === id)?.verdict;
    expect(smallById('SmolLM2-360M-Instruct')?.type).toBe('runs_well');
    expect(smallById('Qwen2.5-0.5B-Instruct')?.type).toBe('may_be_slow');
    expect(smallById('Qwen3-4B')?.type).toBe('wont_run');
    expect(smallById('Qwen3-4B')?.reason).toMatch(/3\.4 GB/);
  });

  it('E5: a build that only exists in q4f16 is "won\'t run" on a GPU without shader-f16', () => {
    const f16Only = records.filter((r) => r.model_id !== 'SmolLM2-360M-Instruct-q4f32_1-MLC');
    const entry = buildCatalog(f16Only, devices.f32).find(
      (e) => e.baseId === 'SmolLM2-360M-Instruct',
    );
    expect(entry?.verdict).toMatchObject({
      type: 'wont_run',
      reason: expect.stringMatching(/shader-f16/),
    });
  });

  it('E6: the default is Qwen2.5-1.5B when it runs well, a smaller model on a small GPU', () => {
    expect(pickDefaultModel(buildCatalog(records, devices.f16))?.modelId).toBe(
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
    );
    expect(pickDefaultModel(buildCatalog(records, devices.f32))?.modelId).toBe(
      'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
    );
    expect(pickDefaultModel(buildCatalog(records, devices.small))?.baseId).toBe(
      'SmolLM2-360M-Instruct',
    );
  });

  it('E7: download size estimate is the q4 bit budget of the parameters', () => {
    expect(estimateDownloadBytes(1.5, 'q4f16_1')).toBeCloseTo(911e6, -7);
    expect(estimateDownloadBytes(1.5, 'q4f32_1')).toBeGreaterThan(
      estimateDownloadBytes(1.5, 'q4f16_1'),
    );
  });
});
