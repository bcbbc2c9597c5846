import { describe, expect, it, vi } from 'vitest';
import { DISPLAY_NAME_SETTING, userDisplayName } from '../../core/agent/display-names';
import type { CatalogEntry, CatalogVerdict } from '../../core/catalog/build-catalog';
import { buildCpuCatalog } from '../../core/catalog/build-cpu-catalog';
import { CPU_MODELS } from '../../core/catalog/cpu-models';
import { InMemoryStore } from '../../testing/in-memory-store';
import { AgentsState } from './agents.svelte';
import {
  FIRST_RUN_SKIPPED_SETTING,
  FirstRunState,
  firstRunModel,
  type FirstRunModel,
} from './first-run.svelte';

const well: CatalogVerdict = { type: 'runs_well', reason: 'Fits this GPU.' };
function gpuEntry(baseId: string, verdict: CatalogVerdict = well): CatalogEntry {
  return {
    baseId,
    label: baseId.replace(/-Instruct$/, ''),
    family: 'qwen2.5',
    paramsB: 1.5,
    modelId: `${baseId}-q4f16_1-MLC`,
    quantization: 'q4f16_1',
    downloadBytes: 900_000_000,
    vramMB: 1600,
    contextWindow: 4096,
    verdict,
  };
}
const GPU = [gpuEntry('Qwen2.5-0.5B-Instruct'), gpuEntry('Qwen2.5-1.5B-Instruct')];
// An isolated 8-core laptop: the CPU catalog's verdicts as the app computes them.
const CPU = buildCpuCatalog(CPU_MODELS, { cores: 8, memoryGB: 8, isolated: true });

describe('firstRunModel (U192)', () => {
  it('recommends the preferred GPU model where WebGPU runs, with its download size', () => {
    const pick = firstRunModel({ loaded: null, statuses: {}, gpu: GPU, cpu: CPU, gpuUsable: true });
    expect(pick).toMatchObject({
      modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      runsOn: 'gpu',
      state: 'download',
      bytes: 900_000_000,
      reason: 'Fits this GPU.',
    });
  });

  it('recommends a CPU model where there is no usable GPU, even if the GPU list has entries', () => {
    const pick = firstRunModel({
      loaded: null,
      statuses: {},
      gpu: GPU,
      cpu: CPU,
      gpuUsable: false,
    });
    expect(pick?.runsOn).toBe('cpu');
    expect(CPU.map((e) => e.modelId)).toContain(pick?.modelId);
    expect(pick?.state).toBe('download');
    expect(pick?.bytes).toBeGreaterThan(0);
  });

  it('offers a model already downloaded before recommending a new download', () => {
    const small = CPU.find((e) => e.modelId.startsWith('Qwen2.5-0.5B'))!;
    const pick = firstRunModel({
      loaded: null,
      statuses: { [small.modelId]: { type: 'cached', bytes: 1 } },
      gpu: GPU,
      cpu: CPU,
      gpuUsable: false,
    });
    expect(pick).toMatchObject({ modelId: small.modelId, state: 'cached', reason: '' });
  });

  it('offers the loaded model first, even one the catalog does not list', () => {
    const cached = { [GPU[0]!.modelId]: { type: 'cached' as const, bytes: 1 } };
    expect(
      firstRunModel({
        loaded: GPU[1]!.modelId,
        statuses: cached,
        gpu: GPU,
        cpu: CPU,
        gpuUsable: true,
      }),
    ).toMatchObject({ modelId: GPU[1]!.modelId, state: 'loaded' });
    expect(
      firstRunModel({
        loaded: 'scripted-llama3',
        statuses: {},
        gpu: [],
        cpu: [],
        gpuUsable: false,
      }),
    ).toMatchObject({ modelId: 'scripted-llama3', label: 'scripted-llama3', state: 'loaded' });
  });

  it('never offers a model that will not run, nor anything before the device check', () => {
    const wont: CatalogVerdict = { type: 'wont_run', reason: 'Too big.' };
    const cpuWont = CPU.map((e) => ({ ...e, verdict: wont }));
    expect(
      firstRunModel({
        loaded: null,
        statuses: {},
        gpu: [gpuEntry('Qwen2.5-1.5B-Instruct', wont)],
        cpu: cpuWont,
        gpuUsable: true,
      }),
    ).toBeNull();
    expect(
      firstRunModel({ loaded: null, statuses: {}, gpu: GPU, cpu: CPU, gpuUsable: null }),
    ).toBeNull();
  });

  it('a server model loaded is not "a model on this device": the recommendation stands', () => {
    const pick = firstRunModel({
      loaded: 'server:llama3',
      statuses: {},
      gpu: GPU,
      cpu: CPU,
      gpuUsable: true,
    });
    expect(pick?.state).toBe('download');
  });
});

function setup() {
  const store = new InMemoryStore();
  let n = 0;
  let t = 100;
  const agents = new AgentsState({
    store,
    clock: { now: () => (t += 1) },
    newId: () => `agent-${(n += 1)}`,
  });
  const loadModel = vi.fn(async (_modelId: string) => true);
  const openChat = vi.fn();
  const firstRun = new FirstRunState({ settings: store, agents, loadModel, openChat });
  return { store, agents, loadModel, openChat, firstRun };
}

const download: FirstRunModel = {
  modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
  label: 'Qwen2.5 0.5B',
  bytes: 1,
  runsOn: 'cpu',
  state: 'download',
  reason: '',
};

describe('FirstRunState (U191–U193)', () => {
  it('shows on a profile with no agent, and not once an agent exists', async () => {
    const { agents, firstRun } = setup();
    expect(firstRun.visible).toBe(false);
    await agents.start();
    await firstRun.start();
    expect(firstRun.visible).toBe(true);
    await agents.create({ name: 'Ada', kind: 'companion' });
    expect(firstRun.visible).toBe(false);
    agents.stop();
  });

  it('"Say hello" stores the display name, names the companion, writes the persona in its name, opens the chat and loads the model', async () => {
    const { store, agents, firstRun, loadModel, openChat } = setup();
    await agents.start();
    await firstRun.start();
    const agent = await firstRun.sayHello({
      you: '  Sam   Rivera ',
      companion: ' Juniper ',
      model: download,
    });
    expect(agent?.name).toBe('Juniper');
    expect(await userDisplayName(store)).toBe('Sam Rivera');
    expect((await store.getBlock(agent!.id, 'persona'))?.value).toContain('I am Juniper');
    expect((await store.getBlock(agent!.id, 'human'))?.value).toBe('Name: Sam Rivera.');
    expect(agents.activeId).toBe(agent!.id);
    expect(openChat).toHaveBeenCalledTimes(1);
    expect(loadModel).toHaveBeenCalledWith(download.modelId);
    expect(firstRun.visible).toBe(false);
    agents.stop();
  });

  it('empty fields: the companion is "Loci", no display name is stored, the human block stays empty', async () => {
    const { store, agents, firstRun, loadModel } = setup();
    await agents.start();
    await firstRun.start();
    const agent = await firstRun.sayHello({
      you: '   ',
      companion: '',
      model: { ...download, state: 'loaded' },
    });
    expect(agent?.name).toBe('Loci');
    expect(await store.getSetting(DISPLAY_NAME_SETTING)).toBeUndefined();
    expect((await store.getBlock(agent!.id, 'human'))?.value).toBe('');
    // A loaded model is not loaded again.
    expect(loadModel).not.toHaveBeenCalled();
    agents.stop();
  });

  it('"Skip" hides it for good: a new state over the same store stays hidden', async () => {
    const { store, agents, firstRun } = setup();
    await agents.start();
    await firstRun.start();
    await firstRun.skip();
    expect(firstRun.visible).toBe(false);
    expect(await store.getSetting(FIRST_RUN_SKIPPED_SETTING)).toBe(true);
    const again = new FirstRunState({
      settings: store,
      agents,
      loadModel: async () => true,
      openChat: () => {},
    });
    await again.start();
    expect(again.visible).toBe(false);
    agents.stop();
  });

  it('a failure to create the companion is said in words and nothing opens', async () => {
    const { store, agents, openChat, loadModel } = setup();
    await agents.start();
    const failing = new FirstRunState({
      settings: store,
      agents: {
        loaded: true,
        list: [],
        create: async () => {
          throw new Error('disk full');
        },
      },
      loadModel,
      openChat,
    });
    await failing.start();
    expect(await failing.sayHello({ you: '', companion: 'Ada', model: download })).toBeNull();
    expect(failing.error).toBeTruthy();
    expect(failing.busy).toBe(false);
    expect(openChat).not.toHaveBeenCalled();
    expect(loadModel).not.toHaveBeenCalled();
    agents.stop();
  });
});
