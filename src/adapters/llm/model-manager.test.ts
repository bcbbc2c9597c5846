import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import type { LoadProgress } from '../../core/ports/llm-engine';
import {
  ModelManager,
  type ModelCache,
  type ModelLoader,
  type ModelManagerState,
} from './model-manager';

const MB = 1024 * 1024;

function fakes(options: { online?: boolean; cached?: string[] } = {}) {
  let time = 0;
  const cached = new Set(options.cached ?? []);
  let rejectLoad: ((e: unknown) => void) | null = null;
  let emit: ((p: LoadProgress) => void) | null = null;
  let resolveLoad: (() => void) | null = null;
  const loader: ModelLoader & { modelId: string | null } = {
    modelId: null,
    load(modelId, onProgress) {
      emit = onProgress ?? null;
      return new Promise<void>((resolve, reject) => {
        resolveLoad = () => {
          loader.modelId = modelId;
          cached.add(modelId);
          resolve();
        };
        rejectLoad = reject;
      });
    },
    cancelLoad() {
      rejectLoad?.(new AppError('worker_crashed', 'The worker was restarted.'));
    },
  };
  const cache: ModelCache = {
    has: async (id) => cached.has(id),
    remove: async (id) => void cached.delete(id),
    bytes: async (id) => (cached.has(id) ? 900 * MB : 0),
  };
  const manager = new ModelManager({
    loader,
    cache,
    now: () => time,
    isOnline: () => options.online ?? true,
  });
  const states: ModelManagerState[] = [];
  manager.subscribe((s) => states.push(s));
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    manager,
    states,
    tick,
    advance: (ms: number) => (time += ms),
    progress: (p: LoadProgress) => emit?.(p),
    finish: () => resolveLoad?.(),
  };
}

const downloading = (loadedMB: number, totalMB: number): LoadProgress => ({
  type: 'downloading',
  fraction: loadedMB / totalMB,
  loadedBytes: loadedMB * MB,
  totalBytes: totalMB * MB,
  text: `Fetching param cache: ${loadedMB}MB fetched.`,
});

describe('ModelManager', () => {
  it('E19: a download reports percent, bytes, speed and ETA, then the model is loaded with its storage', async () => {
    const f = fakes();
    const done = f.manager.download('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    await f.tick();
    f.progress(downloading(100, 1000));
    f.advance(2000);
    f.progress(downloading(300, 1000));
    const status = f.manager.getState().models['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'];
    expect(status).toMatchObject({
      type: 'downloading',
      fraction: 0.3,
      loadedBytes: 300 * MB,
      totalBytes: 1000 * MB,
    });
    if (status?.type !== 'downloading') throw new Error('not downloading');
    expect(status.bytesPerSecond).toBeCloseTo(100 * MB);
    expect(status.etaSeconds).toBeCloseTo(7);
    expect(f.manager.getState().busy).toBe('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    f.finish();
    await done;
    expect(f.manager.getState()).toMatchObject({
      loaded: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      busy: null,
      models: { 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC': { type: 'loaded', bytes: 900 * MB } },
    });
  });

  it('E19: offline with nothing cached fails at once with a clear network_unavailable message', async () => {
    const f = fakes({ online: false });
    const error = await f.manager.download('m').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'network_unavailable',
      message: expect.stringMatching(/offline/),
    });
    expect(f.manager.getState().models['m']).toMatchObject({
      type: 'failed',
      error: { code: 'network_unavailable' },
    });
    expect(f.manager.getState().busy).toBeNull();
  });

  it('E19: a cache read that began before a failed download does not undo its "failed" status', async () => {
    const f = fakes({ online: false });
    // The screen's first refresh reads the cache; meanwhile the user's download fails offline.
    const refreshing = f.manager.refresh(['m']);
    await f.manager.download('m').catch(() => undefined);
    await refreshing;
    expect(f.manager.getState().models['m']).toMatchObject({ type: 'failed' });
    // A refresh that starts afterwards reads the cache as it is.
    await f.manager.refresh(['m']);
    expect(f.manager.getState().models['m']).toEqual({ type: 'not_downloaded' });
  });

  it('E19: offline with the model cached still loads it (no network needed)', async () => {
    const f = fakes({ online: false, cached: ['m'] });
    const done = f.manager.download('m');
    await f.tick();
    f.finish();
    await expect(done).resolves.toBeUndefined();
  });

  it('E19: cancel stops the download with model_download_cancelled; a later download can resume', async () => {
    const f = fakes();
    const first = f.manager.download('m');
    await f.tick();
    f.progress(downloading(50, 500));
    f.manager.cancel();
    await expect(first).rejects.toMatchObject({ code: 'model_download_cancelled' });
    expect(f.manager.getState().busy).toBeNull();
    const second = f.manager.download('m');
    await f.tick();
    f.finish();
    await second;
    expect(f.manager.getState().models['m']?.type).toBe('loaded');
  });

  it('E19: after an interrupted download, refresh shows the partial bytes kept for resuming', async () => {
    const f = fakes();
    const manager = new ModelManager({
      loader: { modelId: null, load: async () => {}, cancelLoad: () => {} },
      cache: { has: async () => false, remove: async () => {}, bytes: async () => 300 * MB },
      now: () => 0,
    });
    await manager.refresh(['m']);
    expect(manager.getState().models['m']).toEqual({ type: 'partial', bytes: 300 * MB });
    expect(f.manager.getState().models).toEqual({});
  });

  it('E19: when the worker crashes, the loaded model shows as cached again (not loaded)', async () => {
    let crash = () => {};
    const manager = new ModelManager({
      loader: {
        modelId: null,
        load: async () => {},
        cancelLoad: () => {},
        onCrash: (listener) => {
          crash = listener;
          return () => {};
        },
      },
      cache: { has: async () => true, remove: async () => {}, bytes: async () => 5 * MB },
      now: () => 0,
    });
    await manager.download('m');
    expect(manager.getState()).toMatchObject({ loaded: 'm', models: { m: { type: 'loaded' } } });
    crash();
    expect(manager.getState()).toMatchObject({
      loaded: null,
      models: { m: { type: 'cached', bytes: 5 * MB } },
    });
  });

  it('E19: a second download while one runs is refused', async () => {
    const f = fakes();
    const first = f.manager.download('a');
    await expect(f.manager.download('b')).rejects.toMatchObject({ code: 'invalid_argument' });
    await f.tick();
    f.finish();
    await first;
  });

  it('E19: refresh reports cache status and storage; remove deletes from the cache', async () => {
    const f = fakes({ cached: ['a'] });
    await f.manager.refresh(['a', 'b']);
    expect(f.manager.getState().models).toEqual({
      a: { type: 'cached', bytes: 900 * MB },
      b: { type: 'not_downloaded' },
    });
    await f.manager.remove('a');
    await f.manager.refresh(['a']);
    expect(f.manager.getState().models['a']).toEqual({ type: 'not_downloaded' });
    expect(f.states.length).toBeGreaterThan(3);
  });
});
