/**
 * The composition root: the only place that wires adapters to the core and the UI.
 *
 * Production: web-llm in the LLM worker, the user's embedding model (only once they chose one in
 * Settings — a download must be the user's choice, P10) in the embed worker, Dexie storage, Web
 * Locks. The e2e build (`__LOCI_E2E__`) swaps in the scripted engine inside the same LLM worker
 * and the fixture embedder served at `/models/`, and exposes `window.__loci` so tests can script
 * the model and read the store (ADR 0060).
 */
import { sweepMemoryCheckAgents } from './core/eval/run-memory-check';
import { AppError } from './core/errors';
import { liveQuery } from 'dexie';
import { mount } from 'svelte';
import './ui/theme.css';
import App from './ui/App.svelte';
import {
  DocumentWorkerClient,
  documentWorkerConnection,
  openWorkerDocumentSource,
} from './adapters/documents/worker-document-source';
import { RpcClient } from './rpc/rpc-client';
import { loadBrowserPdfjs } from './adapters/documents/pdfjs-browser';
import {
  createEmbedWorkerClients,
  type EmbedWorkerClients,
} from './adapters/embed/worker-embedder';
import {
  defaultEmbedModel,
  EMBED_MODELS,
  findEmbedModel,
  FIXTURE_EMBED,
  type EmbedModelSpec,
} from './adapters/embed/embed-models';
import { dexieBackupActions } from './adapters/backup/dexie-backup-actions';
import { BackupWorkerClient, backupWorkerConnection } from './adapters/backup/worker-backup-reader';
import { probeWebGpu } from './adapters/gpu/webgpu-probe';
import { ModelManager, type ModelCache } from './adapters/llm/model-manager';
import { tolerantCache } from './adapters/llm/tolerant-cache';
import { loadCatalog } from './adapters/llm/webllm/load-catalog';
import { createWebLlmModelCache } from './adapters/llm/webllm/webllm-model-cache';
import { createWorkerLlmEngine, type CompletionReport } from './adapters/llm/worker-llm-engine';
import { buildCpuCatalog, type CpuDevice } from './core/catalog/build-cpu-catalog';
import { CPU_MODELS, type CpuModelRecord } from './core/catalog/cpu-models';
import { WebLocksTurnLock } from './adapters/locks/web-locks-turn-lock';
import { keepForOffline } from './adapters/pwa/keep-for-offline';
import { registerServiceWorker } from './adapters/pwa/register-sw';
import { LocalVectorIndex } from './adapters/search/local-vector-index';
import { Bm25LexicalIndex } from './adapters/search/bm25-lexical-index';
import { DexieMemoryStore, LociDb, openMemoryStore } from './adapters/storage/dexie/index';
import { localDeviceSettings } from './adapters/storage/device-settings';
import { browserStorageStatus } from './adapters/storage/storage-status';
import type { AgentDeps } from './core/agent/agent-deps';
import { recoverInterruptedTurns } from './core/agent/recover-turns';
import { runTurn } from './core/agent/run-turn';
import type { Clock, IdSource } from './core/ports/clock';
import type { Embedder } from './core/ports/embedder';
import type { ScriptedConfig } from './rpc/llm-api';
import { createMemorySearch } from './core/search/memory-search';
import { createSwitchableSearch } from './core/search/switchable-search';
import { createForgettingStrategy } from './core/strategies/forgetting';
import { createRecencyStrategy } from './core/strategies/recency';
import { createWindowStrategy } from './core/strategies/window';
import type { MemoryServices, AppServices, MemoryCheckServices } from './ui/services';
import { ShareInbox } from './ui/components/documents/share-inbox';
import { takeShareLaunch } from './ui/components/documents/share-target';
import { AgentsState } from './ui/state/agents.svelte';
import { BackupReminderState } from './ui/state/backup-reminder.svelte';
import { PersistenceState } from './ui/state/persistence.svelte';
import { StoreUpgrade } from './ui/state/store-upgrade.svelte';
import { ThemeState } from './ui/state/theme.svelte';
import { BackgroundEmbedding } from './ui/state/background-embedding.svelte';
import { ChatSession } from './ui/state/chat-session.svelte';
import { ConversationsState } from './ui/state/conversations.svelte';
import { DeviceState } from './ui/state/device.svelte';
import { DocumentsState } from './ui/state/documents.svelte';
import { Highlights } from './ui/state/highlights.svelte';
import { ModelManagerView } from './ui/state/model-manager.svelte';
import { ModelServerState } from './ui/state/model-server.svelte';
import { isServerModel } from './adapters/llm/openai-endpoint/endpoint-engine';
import { PwaState } from './ui/state/pwa.svelte';
import { Router } from './ui/state/router.svelte';
import { ShareInboxState } from './ui/state/share-inbox.svelte';

/** Settings keys the composition root reads (Settings writes `embed.modelId`). */
const LOADED_MODEL_KEY = 'llm.modelId';
const EMBED_MODEL_KEY = 'embed.modelId';
/** The model id the e2e build's scripted engine reports. */
const E2E_MODEL_ID = 'scripted-llama3';
/** The fixture GGUF model's id (e2e build): real llama.cpp through wllama. */
const E2E_CPU_MODEL_ID = 'loci-fixture-llama';
// Longest wait for the GPU probe before the embedder falls back to WASM.
const PROBE_WAIT_MS = 3000;

const clock: Clock = { now: () => Date.now() };
const ids: IdSource = { next: (prefix = 'id') => `${prefix}_${crypto.randomUUID()}` };

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
const askPersistence = (reason: 'memory' | 'document' | 'model' | 'install') => () =>
  void persistence.ensure(reason).catch((e: unknown) => console.warn('persist() failed', e));
void persistence.refresh().catch((e: unknown) => console.warn('storage status failed', e));
window.addEventListener('appinstalled', askPersistence('install'));
const device = new DeviceState(() => probeWebGpu());
let session: ChatSession | null = null;
const pwa = new PwaState(() => session?.running ?? false, undefined, deviceSettings);

// The CPU models; the e2e build adds the fixture GGUF, downloaded from the app's own origin (E46).
const cpuModels: CpuModelRecord[] = [
  ...CPU_MODELS,
  ...(__LOCI_E2E__
    ? [
        {
          modelId: E2E_CPU_MODEL_ID,
          label: 'Loci fixture (random, CPU)',
          paramsB: 0.001,
          urls: [new URL('models/loci-fixture-llama.gguf', document.baseURI).href],
          downloadBytes: 1_497_248,
          // 8k: a 1,024-token reply reserve holds the longest step the random model can write.
          contextWindow: 8192,
          source: 'tests/fixtures/models (scripts/make-fixture-gguf.mjs)',
        },
      ]
    : []),
];
const cpuModel = (modelId: string) => cpuModels.find((m) => m.modelId === modelId);
const cpuDevice: CpuDevice = {
  cores: navigator.hardwareConcurrency || 1,
  memoryGB: (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? null,
  isolated: self.crossOriginIsolated === true,
};

// The user's own model server (device settings: the key never reaches IndexedDB or a backup).
let server: ModelServerState | null = null;
const llm = createWorkerLlmEngine({
  ...(__LOCI_E2E__ ? { engine: 'scripted' as const, scripted: e2eScript() } : {}),
  endpoint: () => server?.saved() ?? null,
  cpuSource: (modelId) => {
    const model = cpuModel(modelId);
    return model ? { urls: model.urls, contextWindow: model.contextWindow } : undefined;
  },
});
const gpuCache = tolerantCache(createWebLlmModelCache(llm));
// CPU (GGUF) models live in wllama's OPFS cache; GPU models in web-llm's Cache Storage.
// A server model has nothing to download or store here.
const modelCache: ModelCache = {
  has: async (id) => {
    if (isServerModel(id)) return true;
    const model = cpuModel(id);
    return model ? (await llm.ggufCacheStatus(model.urls)).complete : gpuCache.has(id);
  },
  bytes: async (id) => {
    if (isServerModel(id)) return 0;
    const model = cpuModel(id);
    return model ? (await llm.ggufCacheStatus(model.urls)).bytes : gpuCache.bytes(id);
  },
  remove: async (id) => {
    if (isServerModel(id)) return;
    const model = cpuModel(id);
    return model ? llm.ggufCacheDelete(model.urls) : gpuCache.remove(id);
  },
};
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
// The e2e build may open another database (`?e2e-db=<name>`): the migration spec fills one at
// schema v1 and then loads the app over it. Opening (and upgrading) is measured as
// `loci:store-open` for the reliability report.
const dbName = (__LOCI_E2E__ ? new URLSearchParams(location.search).get('e2e-db') : null) ?? 'loci';
const storeOpenStart = performance.now();
// A schema upgrade reports its progress to the full-screen status (U215, ADR 0171).
const storeUpgrade = new StoreUpgrade();
const storeOpened = openMemoryStore(dbName, (progress) => storeUpgrade.report(progress));
void storeOpened
  .then(() => performance.measure('loci:store-open', { start: storeOpenStart }))
  .catch(() => undefined)
  .finally(() => storeUpgrade.finish());

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
server = new ModelServerState({
  device: deviceSettings,
  test: (settings, model) => llm.testEndpoint(settings, model),
  use: (modelId) => models.download(modelId),
});

async function bootMemory(): Promise<MemoryServices> {
  const store = await storeOpened;
  await Promise.race([deviceChecked, new Promise((r) => setTimeout(r, PROBE_WAIT_MS))]);

  // The embedding model can change while Loci runs (ADR 0177): the services hold one switchable
  // search, and `chooseEmbedder` swaps the search (and the embedder imports use) behind it.
  let chosen = embedModelFor(await store.getSetting<string | null>(EMBED_MODEL_KEY));
  let clients: EmbedWorkerClients | null = null;
  const embedderFor = (model: EmbedModelSpec | null): Embedder | null => {
    if (!model) return null;
    if (clients) return clients.switchModel(model);
    const made = createEmbedWorkerClients({ model, device: device.verdict?.embedder ?? 'wasm' });
    clients = made;
    // The vector matrix lives in the embed worker and dies with it: the next call starts a fresh
    // worker, and the active agent's vectors are reloaded from IndexedDB (nothing is lost).
    made.vectorIndex.onCrash(() => {
      const agentId = search.agentId;
      if (agentId) void search.loadAgent(agentId).catch((e: unknown) => console.warn(e));
    });
    return made.embedder;
  };
  let embedder = embedderFor(chosen);
  const searchFor = (over: Embedder | null) =>
    createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: over && clients ? clients.vectorIndex : null,
      embedder: over,
      clock,
      vectorStore: store,
      // Loading an agent's index yields between slices, so opening a chat never blocks (X181).
      yieldToHost: () => new Promise((r) => setTimeout(r, 0)),
    });
  const search = createSwitchableSearch(searchFor(embedder));
  const lock = new WebLocksTurnLock();
  const highlights = new Highlights();
  const deps: AgentDeps = {
    store,
    search,
    engine: llm,
    clock,
    ids,
    lock,
    strategies: {
      forgetting: createForgettingStrategy(),
      recency: createRecencyStrategy(),
      window: createWindowStrategy(),
    },
  };
  // Text, Markdown and HTML are read, parsed and chunked in the document worker (X177); where
  // it cannot start, on the page, and the Documents screen says so (X178).
  const documentWorker = new DocumentWorkerClient(new RpcClient(documentWorkerConnection()), {
    onUnavailable: (reason) => {
      console.warn('the document worker could not start; imports are read on the page', reason);
      documents.noteReadingOnPage();
    },
  });
  const documents: DocumentsState = new DocumentsState({
    store,
    search,
    // Read on every import: the model chosen now, not the one at start-up.
    get embedder() {
      return embedder;
    },
    lock,
    clock,
    ids,
    open: (file) =>
      openWorkerDocumentSource(file.blob, file.name, {
        pdfjs: loadBrowserPdfjs,
        worker: documentWorker,
        ...(file.asText ? { format: 'text' as const } : {}),
      }),
    // The rest of an import runs on the page: yield between slices so it keeps painting (ADR 0055).
    yieldToHost: () => new Promise((r) => setTimeout(r, 0)),
    onImported: askPersistence('document'),
    // `conversations` is made below; this runs only when a file is queued, after start-up.
    conversationFor: (agentId) => conversations.selectedFor(agentId),
  });
  const inbox = new ShareInbox();
  const shares = new ShareInboxState({ inbox, importer: documents, clock });
  void inbox
    .sweep(clock.now())
    .catch((e: unknown) => console.warn('sweeping the share inbox failed', e))
    .then(() => shares.receive(shareLaunch));
  const embedding = new BackgroundEmbedding({ search, lock, model: chosen?.label ?? null });
  const agents = new AgentsState({
    store,
    clock,
    newId: () => ids.next('agent'),
    onCreated: askPersistence('memory'),
    modelChoices: () => {
      const state = models.state.models;
      const usable = (id: string) => ['cached', 'loaded'].includes(state[id]?.type ?? '');
      const saved = server?.saved() ? server.model : null;
      return [
        ...models.entries
          .filter((e) => usable(e.modelId))
          .map((e) => ({ modelId: e.modelId, label: e.label })),
        ...models.cpuEntries.map((e) => ({ modelId: e.modelId, label: `${e.label} (CPU)` })),
        ...(saved ? [{ modelId: `server:${saved}`, label: `${saved} (your model server)` }] : []),
      ];
    },
  });
  // The active agent's conversations; the chat shows and runs the selected one (U187–U190).
  const conversations = new ConversationsState({
    store,
    search,
    lock,
    clock,
    newId: () => ids.next('conversation'),
  });
  session = new ChatSession({
    store,
    search,
    lock,
    highlights,
    modelReady: () => models.state.loaded !== null,
    modelLoading: () => models.state.busy !== null,
    run: async (agentId, trigger, options) => {
      // Each agent may keep a model of its own (Agent.modelId): load it before the turn, so the
      // plan uses its window. A load that fails stops here, before anything is stored.
      const wanted = (await store.getAgent(agentId))?.modelId ?? null;
      if (wanted && models.state.loaded !== wanted && !(await models.download(wanted))) {
        throw new AppError(
          'model_load_failed',
          `This agent's model (${wanted}) could not be loaded: ${models.error?.what ?? ''}`,
        );
      }
      const outcome = await runTurn(deps, agentId, trigger, {
        ...options,
        onEvent: (event) => {
          if (__LOCI_E2E__ && event.type === 'context.planned') {
            plans.push({
              step: event.step,
              prompt: event.plan.total - event.plan.sections.reserve,
            });
          }
          options.onEvent?.(event);
        },
      });
      // A new chat takes its title from its first message (U187).
      if (trigger.type === 'user_message' && outcome.turnId !== null && options.conversationId)
        await conversations.nameFromFirstMessage(options.conversationId, trigger.text);
      return outcome;
    },
    prepare: async (agentId) => {
      // Only a tab that can take the lock may relabel `running` turns: in another tab they are live.
      const release = await lock.acquire(agentId);
      if (release) {
        try {
          await recoverInterruptedTurns(store, agentId, clock);
          // What a closed tab left of an import, before the index loads (D39).
          await documents.sweep(agentId);
        } finally {
          await release();
        }
      }
      if (search.agentId !== agentId) await search.loadAgent(agentId);
      // After a model switch: old memories get vectors from the new model, in the background.
      void embedding.run(agentId);
    },
    onGenerationEnded: () => {
      void pwa.generationEnded();
      askPersistence('memory')();
    },
  });
  await agents.start();
  // A memory check cut off by a closed tab left its temporary agent behind (V14).
  void sweepMemoryCheckAgents(store, lock).catch((e: unknown) =>
    console.warn('sweeping memory-check agents failed', e),
  );

  const writer = { engine: llm, store, search, clock, ids, lock };
  // The memory check gets a search of its own per run, with the same embedder and tokenizer. Its
  // vectors stay on this thread: the embed worker's matrix holds the active agent's, and loading
  // the temporary agent into it would clear them. Nothing of its vectors is persisted.
  const memoryCheck: MemoryCheckServices = {
    createSearch: () =>
      createMemorySearch({
        store,
        lexical: new Bm25LexicalIndex(),
        vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
        embedder,
        clock,
      }),
    tokenizer: () => llm.tokenizer(),
    get embedderName() {
      return chosen?.label ?? null;
    },
    clock,
    ids,
    lock,
  };
  /**
   * Makes the embedding model saved in Settings the one in use, without a restart (ADR 0177):
   * the catch-up of the old model stops, the loaded agent is loaded into a search over the new
   * model (or words only for "None"), and the catch-up embeds what has no vector from it.
   */
  let switching: Promise<void> = Promise.resolve();
  const switchEmbedder = (saved: string | null | undefined): Promise<void> => {
    const run = async () => {
      const next = embedModelFor(saved);
      if ((next?.id ?? null) === (chosen?.id ?? null)) return;
      await embedding.halt();
      const nextEmbedder = embedderFor(next);
      await search.replace(searchFor(nextEmbedder));
      chosen = next;
      embedder = nextEmbedder;
      embedding.useModel(next?.label ?? null);
      const agentId = search.agentId;
      if (agentId) void embedding.run(agentId);
    };
    switching = switching.then(run, run);
    return switching;
  };
  const chooseEmbedder = (id: string) => switchEmbedder(id === '' ? null : id);
  // A choice saved in another tab takes effect here too (Dexie's live query sees its write).
  liveQuery(() => store.getSetting<string | null>(EMBED_MODEL_KEY)).subscribe({
    next: (saved) =>
      void switchEmbedder(saved).catch((e: unknown) =>
        console.warn('switching the embedding model failed', e),
      ),
    error: (e: unknown) => console.warn('watching the embedding choice failed', e),
  });
  const memory: MemoryServices = {
    store,
    search,
    chooseEmbedder,
    agents,
    session,
    conversations,
    highlights,
    writer,
    documents,
    shares,
    memoryCheck,
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
  if (__LOCI_E2E__) {
    Object.assign(window, {
      __loci: {
        ...memory,
        llm,
        manager,
        /** Every finished completion's report (prompt tokens as the engine counted them). */
        completions,
        /** Every context plan's prompt total (the planner's count), in order. */
        plans,
        models,
        lock,
        /**
         * Opens database `name` through the v1 schema declaration (the v1 code path of the
         * store), for the migration spec to fill before the app opens it at the current version.
         */
        openV1Store: async (name: string) => {
          const v1 = new DexieMemoryStore(new LociDb(name, 1));
          await v1.db.open();
          return v1;
        },
        /** Loads the scripted model as if it had been downloaded (tests). */
        loadModel: async (modelId: string = E2E_MODEL_ID) => {
          // The remembered model may be loading already (a second tab, a reload): wait and retry.
          for (let attempt = 0; attempt < 5; attempt += 1) {
            while (manager.getState().busy) await new Promise((r) => setTimeout(r, 20));
            if (manager.getState().loaded === modelId) return true;
            if (await models.download(modelId)) return true;
          }
          return false;
        },
        /** Replaces the scripted engine's config (window, rules) for the next `loadModel`. */
        configureScripted: (config: ScriptedConfig) =>
          llm.configure({ engine: 'scripted', scripted: { ...e2eScript(), ...config } }),
      },
    });
  }
  void reloadRememberedModel(store);
  return memory;
}

/**
 * The embedding model for a saved choice: none for "None" (null) or an unknown id. The e2e build
 * cannot download the real models: there the fixture stands in for any of them, and for no
 * choice saved yet (the specs' default), while "None" stays words only.
 */
function embedModelFor(saved: string | null | undefined): EmbedModelSpec | null {
  if (__LOCI_E2E__) {
    if (saved === null || saved === '') return null;
    const found = saved === undefined ? undefined : findEmbedModel(saved);
    return found?.local ? found : FIXTURE_EMBED;
  }
  return saved ? (findEmbedModel(saved) ?? null) : null;
}

/** Loads the model used last time (from the cache: no download) when this device can run it. */
async function reloadRememberedModel(store: {
  getSetting<T>(key: string): Promise<T | undefined>;
}) {
  const modelId = await store.getSetting<string>(LOADED_MODEL_KEY);
  if (!modelId) return;
  await deviceChecked;
  if (isServerModel(modelId)) {
    // The server may be off now: the Models screen says so, and nothing else is tried.
    if (server?.saved()) await models.download(modelId);
    return;
  }
  if (!__LOCI_E2E__ && device.verdict?.llm.type !== 'gpu' && !cpuModel(modelId)) return;
  if (!__LOCI_E2E__ && !(await modelCache.has(modelId))) return;
  await models.download(modelId);
}

/**
 * The e2e build's scripted model: queued replies first (tests push them), then a rule that
 * answers the queue manager's summary prompt, then a plain reply so a stray turn still ends.
 */
function e2eScript(): ScriptedConfig {
  return {
    rules: [
      {
        pattern: '^Previous summary:',
        reply: 'Summary: Sam introduced themself, talked about hiking and a sister in Lisbon.',
      },
    ],
    fallback: JSON.stringify({
      thinking: 'No scripted reply was queued.',
      function: 'send_message',
      arguments: { message: 'OK.' },
      request_heartbeat: false,
    }),
  };
}

// What the e2e build records for tests: planner totals and the engine's own counts.
const plans: { step: number; prompt: number }[] = [];
const completions: CompletionReport[] = [];
if (__LOCI_E2E__) llm.onCompletion((report) => completions.push(report));

const services: AppServices = {
  router,
  device,
  pwa,
  models,
  server,
  persistence,
  reminder,
  theme,
  storageStatus,
  storeUpgrade,
  embedModels: { choices: EMBED_MODELS, defaultId: defaultEmbedModel(navigator.languages).id },
  memory: bootMemory(),
};

mount(App, { target: document.getElementById('app')!, props: { services } });

registerServiceWorker(pwa);
