import { describe, expect, it } from 'vitest';
import { buildCpuCatalog, cpuThreads, pickCpuModel } from './build-cpu-catalog';
import { CPU_MODELS } from './cpu-models';

const desktop = { cores: 8, memoryGB: 8, isolated: true };

describe('CPU catalog (E48–E50)', () => {
  it('E48: lists small GGUF instruct models, each one file under 2 GB from the model host', () => {
    for (const m of CPU_MODELS) {
      expect(m.urls).toHaveLength(1);
      expect(m.urls[0]).toMatch(/^https:\/\/huggingface\.co\/.+\.gguf$/);
      expect(m.downloadBytes).toBeLessThan(2 * 1024 ** 3);
      expect(m.contextWindow).toBeGreaterThanOrEqual(4096);
    }
    expect(new Set(CPU_MODELS.map((m) => m.modelId)).size).toBe(CPU_MODELS.length);
  });

  it('E49: threads follow isolation and cores; memory and speed decide the verdict', () => {
    expect(cpuThreads({ cores: 8, memoryGB: 8, isolated: false })).toBe(1);
    expect(cpuThreads(desktop)).toBe(4);
    expect(cpuThreads({ cores: 32, memoryGB: 8, isolated: true })).toBe(8);
    // A two-core machine runs on both (ADR 0210).
    expect(cpuThreads({ cores: 2, memoryGB: 4, isolated: true })).toBe(2);
    const fast = buildCpuCatalog(CPU_MODELS, desktop);
    expect(fast.find((e) => e.modelId.startsWith('Qwen2.5-0.5B'))?.verdict.type).toBe('runs_well');
    const single = buildCpuCatalog(CPU_MODELS, { ...desktop, isolated: false });
    const slow = single.find((e) => e.modelId.startsWith('Qwen2.5-1.5B'))?.verdict;
    expect(slow?.type).toBe('may_be_slow');
    expect(slow?.reason).toMatch(/one thread/);
    const phone = buildCpuCatalog(CPU_MODELS, { cores: 8, memoryGB: 1, isolated: true });
    expect(phone.find((e) => e.modelId.startsWith('Qwen2.5-1.5B'))?.verdict.type).toBe('wont_run');
  });

  it('E50: recommends the preferred model that runs well, else the smallest that runs', () => {
    expect(pickCpuModel(buildCpuCatalog(CPU_MODELS, desktop))?.modelId).toMatch(/^Qwen2\.5-1\.5B/);
    const single = buildCpuCatalog(CPU_MODELS, { ...desktop, isolated: false });
    expect(pickCpuModel(single)?.modelId).toMatch(/^Qwen2\.5-0\.5B/);
    expect(pickCpuModel([])).toBeNull();
    // A record the build ranks first (the e2e build's fixture) is recommended on any machine.
    const fixture = {
      ...CPU_MODELS[0]!,
      modelId: 'fixture',
      downloadBytes: 1_500_000,
      preference: 0,
    };
    for (const device of [desktop, { cores: 2, memoryGB: 4, isolated: true }]) {
      expect(pickCpuModel(buildCpuCatalog([...CPU_MODELS, fixture], device))?.modelId).toBe(
        'fixture',
      );
    }
  });
});
