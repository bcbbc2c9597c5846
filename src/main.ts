/**
 * The composition root: the only place that wires adapters to the core and the UI, as a list of
 * named steps; the longer steps live in `src/app/` (ADR 0146, 0193).
 *
 * Production: web-llm in the LLM worker, the user's embedding model (only once they chose one in
 * Settings — a download must be the user's choice, P10) in the embed worker, Dexie storage, Web
 * Locks. The e2e build (`__LOCI_E2E__`) adds one module, `src/app/e2e-build.ts`: the scripted
 * engine inside the same LLM worker, the fixture models served at `/models/`, and
 * `window.__loci`, through which tests script the model and read the store (ADR 0060).
 */
import { sweepMemoryCheckAgents } from './eval/run-memory-check';
import { mount } from 'svelte';
import './ui/theme.css';
import App from './ui/App.svelte';
import { RpcClient } from './rpc/rpc-client';
import { defaultEmbedModel, EMBED_MODELS } from './adapters/embed/embed-models';
import { dexieBackupActions } from './adapters/backup/dexie-backup-actions';
import { BackupWorkerClient, backupWorkerConnection } from './adapters/backup/worker-backup-reader';
import { probeWebGpu } from './adapters/gpu/webgpu-probe';
import { ModelManager } from './adapters/llm/model-manager';
import { loadCatalog } from './adapters/llm/webllm/load-catalog';
import { createWorkerLlmEngine } from './adapters/llm/worker-llm-engine';
import { buildCpuCatalog, type CpuDevice } from './core/catalog/build-cpu-catalog';
import { CPU_MODELS, type CpuModelRecord } from './core/catalog/cpu-models';
import { WebLocksTurnLock } from './adapters/locks/web-locks-turn-lock';
import { keepForOffline } from './adapters/pwa/keep-for-offline';
import { registerServiceWorker } from './adapters/pwa/register-sw';
import { localDeviceSettings } from './adapters/storage/device-settings';
import { browserStorageStatus } from './adapters/storage/storage-status';
import type { Clock, IdSource } from './core/ports/clock';
import type { MemoryServices, AppServices } from './ui/services';
import { takeShareLaunch } from './ui/state/share-target';
import { AgentsState } from './ui/state/agents.svelte';
import { BackupReminderState } from './ui/state/backup-reminder.svelte';
import { PersistenceState } from './ui/state/persistence.svelte';
import { StoreUpgrade } from './ui/state/store-upgrade.svelte';
import { ThemeState } from './ui/state/theme.svelte';
import { ReplyPaceState } from './ui/state/reply-pace.svelte';
import { ReadSpeedBook } from './ui/state/read-speed-book';
import type { ChatSession } from './ui/state/chat-session.svelte';
import { ConversationsState } from './ui/state/conversations.svelte';
import { DeviceState } from './ui/state/device.svelte';
import { Highlights } from './ui/state/highlights.svelte';
import { ModelManagerView } from './ui/state/model-manager.svelte';
import { ModelServerState } from './ui/state/model-server.svelte';
import { isServerModel } from './adapters/llm/openai-endpoint/endpoint-engine';
import { PwaState } from './ui/state/pwa.svelte';
import { Router } from './ui/state/router.svelte';
import { startChatSession } from './app/chat-session';
import { suggestTitle } from './core/agent/suggest-title';
import { startDocuments } from './app/documents';
import type { E2eBuild } from './app/e2e-build';
import { embedModelFor, startEmbeddingChoice } from './app/embedding-choice';
import { memoryCheckServices } from './app/memory-check';
import { appModelCache } from './app/model-cache';
import { modelChoices } from './app/model-choices';
import { openAppStore } from './app/open-store';
import { LOADED_MODEL_KEY, reloadRememberedModel } from './app/remembered-model';
import { startShareInbox } from './app/share-inbox';

// Longest wait for the GPU probe before the embedder falls back to WASM.
const PROBE_WAIT_MS = 3000;

const clock: Clock = { now: () => Date.now() };
const ids: IdSource = { next: (prefix = 'id') => `${prefix}_${crypto.randomUUID()}` };

// The e2e build's additions, in one module only that build imports: `__LOCI_E2E__` is a
// compile-time constant, so the production bundle holds neither the import nor the module.
const e2e: E2eBuild | null = __LOCI_E2E__
  ? (await import('./app/e2e-build')).e2eBuild(location, document.baseURI)
  : null;

// A share (the service worker's inbox id, or a `?share_text=` link) opens the Documents screen,
// where it waits in the "Shared with Loci" inbox until the user adds it to an agent (ADR 0131).
const shareLaunch = takeShareLaunch(window);
const router = new Router();
// Persistent storage is asked for when the user first has something to lose (ADR 0132).
const deviceSettings = localDeviceSettings();
const storageStatus = browserStorageStatus();
const persistence = new PersistenceState({
  status: storageStatus,
  device: deviceSettings,
  clock,
});
const reminder = new BackupReminderState({ device: deviceSettings, clock });
const theme = new ThemeState({
  settings: deviceSettings,
  root: document.documentElement,
  systemDark: typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null,
});
const pace = new ReplyPaceState({ settings: deviceSettings });
const askPersistence = (reason: 'memory' | 'document' | 'model' | 'install') => () =>
  void persistence.ensure(reason).catch((e: unknown) => console.warn('persist() failed', e));
void persistence.refresh().catch((e: unknown) => console.warn('storage status failed', e));
window.addEventListener('appinstalled', askPersistence('install'));
const device = new DeviceState(() => probeWebGpu());
let session: ChatSession | null = null;
const pwa = new PwaState(() => session?.running ?? false, undefined, deviceSettings);

// The CPU models (the e2e build adds the fixture GGUF, served from the app's own origin, E46).
const cpuModels: CpuModelRecord[] = [...CPU_MODELS, ...(e2e?.cpuModels ?? [])];
const cpuModel = (modelId: string) => cpuModels.find((m) => m.modelId === modelId);
const cpuDevice: CpuDevice = {
  cores: navigator.hardwareConcurrency || 1,
  memoryGB: (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? null,
  isolated: self.crossOriginIsolated === true,
};

// The user's own model server (device settings: the key never reaches IndexedDB or a backup).
let server: ModelServerState | null = null;
const llm = createWorkerLlmEngine({
  ...e2e?.engine,
  endpoint: () => server?.saved() ?? null,
  cpuSource: (modelId) => {
    const model = cpuModel(modelId);
    return model ? { urls: model.urls, contextWindow: model.contextWindow } : undefined;
  },
});
e2e?.watchEngine(llm);
const modelCache = appModelCache(llm, cpuModel);
const manager = new ModelManager({
  loader: llm,
  cache: modelCache,
  now: () => performance.now(),
  isOnline: () => navigator.onLine,
});
// Offline means offline (P30, P31, ADR 0189): keep what the first visit fetched, then say so.
keepForOffline({
  engineFetched: () => llm.fetchedAssets(),
  subscribe: (listener) => manager.subscribe(listener),
  needsNetwork: isServerModel,
  onReady: () => pwa.onModelCached(),
});

const deviceChecked = device.check();
// A schema upgrade reports its progress to the full-screen status (U215, ADR 0171).
const storeUpgrade = new StoreUpgrade();
const storeOpened = openAppStore(e2e?.dbName ?? 'loci', storeUpgrade);

const models = new ModelManagerView({
  manager,
  catalog: async () => {
    await deviceChecked;
    return device.verdict ? loadCatalog(device.verdict, llm) : [];
  },
  cpuCatalog: () => buildCpuCatalog(cpuModels, cpuDevice),
  cpuRuntime: () => llm.runtime(),
  usage: async () => {
    const estimate = await navigator.storage?.estimate?.();
    return estimate?.usage !== undefined && estimate.quota !== undefined
      ? { usage: estimate.usage, quota: estimate.quota }
      : null;
  },
  remember: async (modelId) => {
    await (await storeOpened).setSetting(LOADED_MODEL_KEY, modelId);
    if (modelId !== null) askPersistence('model')();
  },
});
// Mirrors the manager from the start: the chat's "model ready" flag reads it.
models.start();
const modelServer = new ModelServerState({
  device: deviceSettings,
  test: (settings, model) => llm.testEndpoint(settings, model),
  use: (modelId) => models.download(modelId),
});
server = modelServer;

/** A remembered model reloads where this device runs it and has it, with no download. */
const canReload = async (modelId: string) =>
  (device.verdict?.llm.type === 'gpu' || cpuModel(modelId) !== undefined) &&
  (await modelCache.has(modelId));

/** Everything that needs the memory store, started once it is open. */
async function bootMemory(): Promise<MemoryServices> {
  const store = await storeOpened;
  await Promise.race([deviceChecked, new Promise((r) => setTimeout(r, PROBE_WAIT_MS))]);
  const lock = new WebLocksTurnLock();
  const highlights = new Highlights();
  const choice = await startEmbeddingChoice({
    store,
    clock,
    lock,
    device: device.verdict?.embedder ?? 'wasm',
    modelFor: e2e?.embedModelFor ?? embedModelFor,
  });
  const { search, embedding } = choice;
  // What most steps share: one store, one search, one clock, one id source, one lock.
  const shared = { store, search, clock, ids, lock };
  const documents = startDocuments({
    ...shared,
    embedder: choice.embedder,
    onImported: askPersistence('document'),
    // `conversations` is made below; this runs only when a file is queued, after start-up.
    conversationFor: (agentId) => conversations.selectedFor(agentId),
  });
  const shares = startShareInbox(shareLaunch, documents, clock);
  const agents = new AgentsState({
    store,
    clock,
    newId: () => ids.next('agent'),
    onCreated: askPersistence('memory'),
    modelChoices: modelChoices(models, modelServer),
  });
  // The active agent's conversations; the chat shows and runs the selected one (U187–U190).
  const conversations = new ConversationsState({
    store,
    search,
    lock,
    clock,
    newId: () => ids.next('conversation'),
    suggestTitle: (first) => suggestTitle(llm, first),
    modelReady: () => models.state.loaded !== null,
  });
  session = startChatSession({
    ...shared,
    fastReplies: () => pace.fast,
    speeds: new ReadSpeedBook(deviceSettings),
    engine: llm,
    highlights,
    models,
    conversations,
    documents,
    embedding,
    onGenerationEnded: () => {
      void pwa.generationEnded();
      askPersistence('memory')();
    },
    observe: e2e?.onTurnEvent,
  });
  await agents.start();
  // A memory check of an earlier version, cut off by a closed tab, left its temporary agent (V14).
  void sweepMemoryCheckAgents(store, lock).catch((e: unknown) =>
    console.warn('sweeping memory-check agents failed', e),
  );
  choice.follow();
  const memory: MemoryServices = {
    store,
    search,
    chooseEmbedder: (id) => choice.switchTo(id === '' ? null : id),
    agents,
    session,
    conversations,
    highlights,
    writer: { ...shared, engine: llm },
    documents,
    shares,
    memoryCheck: memoryCheckServices({
      ...shared,
      engine: llm,
      embedder: choice.embedder,
      embedderName: choice.label,
    }),
    embedding,
    // A backup file is read and checked in the backup worker (X187); where it cannot start, on
    // the page as before. It starts on the first import, not with the app.
    backup: dexieBackupActions(
      store,
      new BackupWorkerClient(new RpcClient(backupWorkerConnection()), {
        onUnavailable: (reason) =>
          console.warn('the backup worker could not start; backups are read on the page', reason),
      }),
    ),
  };
  e2e?.expose(memory, { llm, manager, models, lock });
  void reloadRememberedModel({
    store,
    models,
    server: modelServer,
    deviceChecked,
    canReload: e2e?.canReload ?? canReload,
  });
  return memory;
}

const services: AppServices = {
  router,
  device,
  pwa,
  models,
  server: modelServer,
  persistence,
  reminder,
  theme,
  pace,
  storageStatus,
  storeUpgrade,
  embedModels: { choices: EMBED_MODELS, defaultId: defaultEmbedModel(navigator.languages).id },
  memory: bootMemory(),
};

mount(App, { target: document.getElementById('app')!, props: { services } });

registerServiceWorker(pwa);
