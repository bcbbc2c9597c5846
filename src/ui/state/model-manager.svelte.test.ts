import { describe, expect, it } from 'vitest';
import { ModelManager } from '../../adapters/llm/model-manager';
import type { CatalogEntry } from '../../core/catalog/build-catalog';
import type { LoadProgress } from '../../core/ports/llm-engine';
import { AppError } from '../../core/errors';
import { ModelManagerView } from './model-manager.svelte';

const entry = (modelId: string): CatalogEntry => ({
  baseId: modelId,
  label: modelId,
  family: 'qwen2.5',
  paramsB: 0.5,
  modelId,
  quantization: 'q4f16_1',
  downloadBytes: 300e6,
  vramMB: 945,
  contextWindow: 4096,
  verdict: { type: 'runs_well', reason: 'fits' },
});

function setup(options: { online?: boolean } = {}) {
  let loaded: string | null = null;
  let step: ((p: LoadProgress) => void) | null = null;
  let finish: (() => void) | null = null;
  let fail: ((e: Error) => void) | null = null;
  const cached = new Set<string>();
  let clock = 0;
  const remembered: (string | null)[] = [];
  const manager = new ModelManager({
    loader: {
      get modelId() {
        return loaded;
      },
      load: (id, onProgress) =>
        new Promise<void>((resolve, reject) => {
          step = onProgress ?? null;
          finish = () => {
            loaded = id;
            cached.add(id);
            resolve();
          };
          fail = reject;
        }),
      cancelLoad: () => fail?.(new Error('terminated')),
    },
    cache: {
      has: async (id) => cached.has(id),
      remove: async (id) => void cached.delete(id),
      bytes: async (id) => (cached.has(id) ? 300e6 : 0),
    },
    now: () => clock,
    isOnline: () => options.online ?? true,
  });
  const view = new ModelManagerView({
    manager,
    catalog: async () => [entry('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')],
    usage: async () => ({ usage: cached.size * 300e6, quota: 10e9 }),
    remember: async (id) => void remembered.push(id),
  });
  return {
    view,
    remembered,
    progress: (p: LoadProgress, at: number) => {
      clock = at;
      step?.(p);
    },
    finish: () => finish?.(),
  };
}

const ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ModelManagerView', () => {
  it('U33: a download shows percent, bytes, speed and ETA, then the model is loaded and remembered', async () => {
    const t = setup();
    await t.view.refresh();
    expect(t.view.entries.map((e) => e.modelId)).toEqual([ID]);
    expect(t.view.status(ID)).toEqual({ type: 'not_downloaded' });
    const done = t.view.download(ID);
    await tick();
    const mb = 1e6;
    t.progress(
      { type: 'downloading', fraction: 0.1, loadedBytes: 30 * mb, totalBytes: 300 * mb, text: '' },
      1000,
    );
    t.progress(
      { type: 'downloading', fraction: 0.2, loadedBytes: 60 * mb, totalBytes: 300 * mb, text: '' },
      2000,
    );
    const status = t.view.status(ID);
    expect(status).toMatchObject({ type: 'downloading', fraction: 0.2, loadedBytes: 60 * mb });
    expect(status.type === 'downloading' && status.bytesPerSecond).toBeCloseTo(30 * mb);
    expect(status.type === 'downloading' && status.etaSeconds).toBeCloseTo(8);
    t.finish();
    expect(await done).toBe(true);
    expect(t.view.state.loaded).toBe(ID);
    expect(t.view.status(ID).type).toBe('loaded');
    expect(t.remembered).toEqual([ID]);
    expect(t.view.storage).toEqual({ usage: 300e6, quota: 10e9 });
  });

  it('U33: offline with nothing cached, the download fails at once with the network copy', async () => {
    const t = setup({ online: false });
    await t.view.refresh();
    expect(await t.view.download(ID)).toBe(false);
    expect(t.view.error).toMatchObject({ code: 'network_unavailable', modelId: ID });
    expect(t.view.error?.what).toContain('no network connection');
  });

  it('U33: cancel ends the download with the cancelled copy and nothing loaded', async () => {
    const t = setup();
    await t.view.refresh();
    const done = t.view.download(ID);
    await tick();
    t.view.cancel();
    expect(await done).toBe(false);
    expect(t.view.error?.code).toBe('model_download_cancelled');
    expect(t.view.state.loaded).toBeNull();
    expect(t.view.state.busy).toBeNull();
  });

  it("U192: refreshCpu reads the CPU models' cache status without reading the GPU list", async () => {
    const asked: string[][] = [];
    let catalogRead = false;
    const cpuEntry = { ...entry('cpu-model'), memoryMB: 1, threads: 1, urls: [], source: '' };
    const view = new ModelManagerView({
      manager: {
        subscribe: () => () => {},
        getState: () => ({ models: {}, loaded: null, busy: null }),
        refresh: async (ids) => void asked.push([...ids]),
        download: async () => {},
        cancel: () => {},
        remove: async () => {},
      },
      catalog: async () => {
        catalogRead = true;
        return [];
      },
      cpuCatalog: () => [cpuEntry],
      usage: async () => null,
    });
    await view.refreshCpu();
    expect(asked).toEqual([['cpu-model']]);
    expect(catalogRead).toBe(false);
  });

  it('P32: offline before web-llm was ever fetched, the GPU list is missing without an error and the CPU models still show their state', async () => {
    const asked: string[][] = [];
    const cpuEntry = { ...entry('cpu-model'), memoryMB: 1, threads: 1, urls: [], source: '' };
    let reason: Error = new AppError('network_unavailable', 'Failed to fetch');
    const view = new ModelManagerView({
      manager: {
        subscribe: () => () => {},
        getState: () => ({ models: {}, loaded: null, busy: null }),
        refresh: async (ids) => void asked.push([...ids]),
        download: async () => {},
        cancel: () => {},
        remove: async () => {},
      },
      catalog: async () => {
        throw reason;
      },
      cpuCatalog: () => [cpuEntry],
      usage: async () => null,
    });
    await view.refresh();
    expect(view.catalogOffline).toBe(true);
    expect(view.catalogError).toBeNull();
    expect(asked).toEqual([['cpu-model']]);
    // Any other failure is still a problem shown in words, and the CPU models still get their state.
    reason = new Error('boom');
    await view.refresh();
    expect(view.catalogOffline).toBe(false);
    expect(view.catalogError?.what).toBeTruthy();
    expect(asked).toEqual([['cpu-model'], ['cpu-model']]);
  });
});
