import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { OFFLINE_NOTICE_MS, PwaState } from './pwa.svelte';

describe('PwaState', () => {
  it('P8: an accepted update waits while a reply is generating, then applies once it ends', async () => {
    let generating = true;
    let applied = 0;
    const pwa = new PwaState(() => generating);
    pwa.onNeedRefresh(async () => {
      applied += 1;
    });
    expect(pwa.needRefresh).toBe(true);

    await pwa.update();
    expect(applied).toBe(0);
    expect(pwa.updateQueued).toBe(true);

    generating = false;
    await pwa.generationEnded();
    expect(applied).toBe(1);
    expect(pwa.needRefresh).toBe(false);
  });

  it('P8: with nothing generating the update applies at once', async () => {
    let applied = 0;
    const pwa = new PwaState(() => false);
    pwa.onNeedRefresh(async () => {
      applied += 1;
    });
    await pwa.update();
    expect(applied).toBe(1);
  });

  it('P8: "offline ready" is announced and can be dismissed', () => {
    const pwa = new PwaState(() => false);
    pwa.onOfflineReady();
    pwa.onModelCached();
    expect(pwa.offlineReady).toBe(true);
    pwa.dismiss();
    expect(pwa.offlineReady).toBe(false);
  });

  it('U153: "offline ready" goes away by itself; an update prompt does not', () => {
    const timers: { run: () => void; ms: number }[] = [];
    const pwa = new PwaState(
      () => false,
      (run, ms) => {
        timers.push({ run, ms });
        return 0 as unknown as ReturnType<typeof setTimeout>;
      },
    );
    pwa.onOfflineReady();
    pwa.onModelCached();
    pwa.onNeedRefresh(async () => {});
    expect(timers.map((t) => t.ms)).toEqual([OFFLINE_NOTICE_MS]);
    timers[0]?.run();
    expect(pwa.offlineReady).toBe(false);
    expect(pwa.needRefresh).toBe(true);
  });

  it('U171: "offline ready" waits until a model is cached, in either order', () => {
    const first = new PwaState(
      () => false,
      () => 0 as unknown as ReturnType<typeof setTimeout>,
    );
    first.onOfflineReady();
    expect(first.offlineReady).toBe(false);
    first.onModelCached();
    expect(first.offlineReady).toBe(true);

    const second = new PwaState(
      () => false,
      () => 0 as unknown as ReturnType<typeof setTimeout>,
    );
    second.onModelCached();
    expect(second.offlineReady).toBe(false);
    second.onOfflineReady();
    expect(second.offlineReady).toBe(true);
  });

  it('U171: the notice shows once on a device, not on every visit or every model', () => {
    const device = memoryDeviceSettings();
    const noTimer = () => 0 as unknown as ReturnType<typeof setTimeout>;
    const visit = new PwaState(() => false, noTimer, device);
    visit.onOfflineReady();
    visit.onModelCached();
    expect(visit.offlineReady).toBe(true);
    visit.dismiss();
    visit.onModelCached();
    expect(visit.offlineReady).toBe(false);

    const nextVisit = new PwaState(() => false, noTimer, device);
    nextVisit.onOfflineReady();
    nextVisit.onModelCached();
    expect(nextVisit.offlineReady).toBe(false);
  });
});
