/**
 * Everything the e2e build adds to the app, in one module (ADR 0060, 0193): the scripted model
 * in the LLM worker, the fixture GGUF as a CPU model, the fixture embedder standing in for any
 * embedding model, another database by `?e2e-db=`, and `window.__loci`, through which the
 * Playwright specs script the model and read the store. `src/main.ts` imports it only under
 * `__LOCI_E2E__`, so the production bundle holds none of it.
 */
import { FIXTURE_EMBED, findEmbedModel, type EmbedModelSpec } from '../adapters/embed/embed-models';
import type { ModelManager } from '../adapters/llm/model-manager';
import type { CompletionReport, WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import { DexieMemoryStore, LociDb } from '../adapters/storage/dexie/index';
import type { TurnEvent } from '../core/agent/turn-events';
import type { CpuModelRecord } from '../core/catalog/cpu-models';
import type { TurnLock } from '../core/ports/turn-lock';
import type { ScriptedConfig } from '../rpc/llm-api';
import type { MemoryServices } from '../ui/services';
import type { ModelManagerView } from '../ui/state/model-manager.svelte';

/** The model id the e2e build's scripted engine reports. */
const E2E_MODEL_ID = 'scripted-llama3';

/** What the composition root takes from the e2e build. */
export interface E2eBuild {
  /** The fixture GGUF, downloaded from the app's own origin (E46): real llama.cpp via wllama. */
  cpuModels: CpuModelRecord[];
  /** The LLM worker runs the scripted engine instead of web-llm (same worker, same RPC). */
  engine: { engine: 'scripted'; scripted: ScriptedConfig };
  /** The database to open instead of `loci` (`?e2e-db=<name>`), or null. */
  dbName: string | null;
  /**
   * The embedding model for a saved choice: the real models cannot be downloaded here, so the
   * fixture stands in for any of them, and for no choice saved yet (the specs' default), while
   * "None" (`null` or `''`) stays words only.
   */
  embedModelFor(saved: string | null | undefined): EmbedModelSpec | null;
  /** Any remembered model reloads: the scripted one needs no GPU and no download. */
  canReload(modelId: string): Promise<boolean>;
  /** Starts recording what the specs read from the engine. */
  watchEngine(llm: WorkerLlmEngine): void;
  /** Records what the specs read from a turn. */
  onTurnEvent(event: TurnEvent): void;
  /** Exposes `window.__loci` once memory has started. */
  expose(memory: MemoryServices, parts: E2eParts): void;
}

/** The app's parts the specs drive beside the memory services. */
export interface E2eParts {
  llm: WorkerLlmEngine;
  manager: ModelManager;
  models: ModelManagerView;
  lock: TurnLock;
}

/** The e2e build's additions for the page at `location`, with `baseUri` the document's. */
export function e2eBuild(location: { search: string }, baseUri: string): E2eBuild {
  // What the specs read back: planner totals and the engine's own counts.
  const plans: {
    step: number;
    prompt: number;
    memories: number;
    memoryText: string;
    promptText: string;
  }[] = [];
  const completions: CompletionReport[] = [];
  return {
    cpuModels: [
      {
        modelId: 'loci-fixture-llama',
        label: 'Loci fixture (random, CPU)',
        paramsB: 0.001,
        urls: [new URL('models/loci-fixture-llama.gguf', baseUri).href],
        downloadBytes: 1_497_248,
        // 8k: a 1,024-token reply reserve holds the longest step the random model can write.
        contextWindow: 8192,
        source: 'tests/fixtures/models (scripts/make-fixture-gguf.mjs)',
        // Recommended first on any machine: the specs download it, never a real model (E46).
        preference: 0,
      },
    ],
    engine: { engine: 'scripted', scripted: e2eScript() },
    // The migration spec fills a database at schema v1, then loads the app over it.
    dbName: new URLSearchParams(location.search).get('e2e-db'),
    embedModelFor: (saved) => {
      if (saved === null || saved === '') return null;
      const found = saved === undefined ? undefined : findEmbedModel(saved);
      return found?.local ? found : FIXTURE_EMBED;
    },
    canReload: () => Promise.resolve(true),
    watchEngine: (llm) => {
      llm.onCompletion((report) => completions.push(report));
    },
    onTurnEvent: (event) => {
      if (event.type === 'context.planned') {
        plans.push({
          step: event.step,
          prompt: event.plan.total - event.plan.sections.reserve,
          // Recalled memory in the prompt (kept lines included) and this turn's lines (V38).
          memories: event.plan.sections.memories,
          memoryText: event.plan.memories.map((m) => m.text).join('\n'),
          // The request's text, turn by turn: which version of a reply the model read (U331).
          promptText: event.plan.prompt.map((t) => t.content).join('\n'),
        });
      }
    },
    expose: (memory, { llm, manager, models, lock }) => {
      Object.assign(window, {
        __loci: {
          ...memory,
          llm,
          manager,
          /** Every finished completion's report (prompt tokens as the engine counted them). */
          completions,
          /** Every context plan's prompt total (the planner's count) and recalled memory, in order. */
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
    },
  };
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
