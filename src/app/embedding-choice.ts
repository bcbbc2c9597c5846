import { liveQuery } from 'dexie';
import { findEmbedModel, type EmbedModelSpec } from '../adapters/embed/embed-models';
import {
  createEmbedWorkerClients,
  type EmbedWorkerClients,
} from '../adapters/embed/worker-embedder';
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import type { DexieMemoryStore } from '../adapters/storage/dexie/index';
import type { EmbedderDevice } from '../core/capability/gpu-probe';
import type { Clock } from '../core/ports/clock';
import type { Embedder } from '../core/ports/embedder';
import type { TurnLock } from '../core/ports/turn-lock';
import { createMemorySearch } from '../core/search/memory-search';
import { createSwitchableSearch, type SwitchableSearch } from '../core/search/switchable-search';
import { BackgroundEmbedding } from '../ui/state/background-embedding.svelte';

/** The settings key of the embedding model in use (Settings writes it). */
const EMBED_MODEL_KEY = 'embed.modelId';

/**
 * The app's memory search over the embedding model the user chose, which can change while Loci
 * runs (ADR 0177): every service holds the one switchable search, and a new choice swaps the
 * search (and the embedder imports use) behind it.
 */
export interface EmbeddingChoice {
  search: SwitchableSearch;
  /** Catches search by meaning up after a switch (U80). */
  embedding: BackgroundEmbedding;
  /** The embedder in use now, or null for words only: read it at each use, it changes. */
  embedder(): Embedder | null;
  /** The label of the embedding model in use now, or null for none. */
  label(): string | null;
  /**
   * Makes the choice saved as `saved` the one in use, without a restart: the old model's
   * catch-up stops, the loaded agent is loaded into a search over the new model (or words only
   * for "None"), and the catch-up embeds what has no vector from it. Switches run one at a time.
   */
  switchTo(saved: string | null | undefined): Promise<void>;
  /** From now on, follows the saved choice, also when another tab saves it. */
  follow(): void;
}

export interface EmbeddingChoiceDeps {
  store: DexieMemoryStore;
  clock: Clock;
  lock: TurnLock;
  /** Where the embed worker runs its model. */
  device: EmbedderDevice;
  /** The model for a saved choice: null for "None" or an unknown id. */
  modelFor: (saved: string | null | undefined) => EmbedModelSpec | null;
}

/** Starts the search over the saved embedding model (none until the user chose one, P10). */
export async function startEmbeddingChoice(deps: EmbeddingChoiceDeps): Promise<EmbeddingChoice> {
  const { store, clock, lock } = deps;
  let chosen = deps.modelFor(await store.getSetting<string | null>(EMBED_MODEL_KEY));
  let clients: EmbedWorkerClients | null = null;
  const embedderFor = (model: EmbedModelSpec | null): Embedder | null => {
    if (!model) return null;
    if (clients) return clients.switchModel(model);
    const made = createEmbedWorkerClients({ model, device: deps.device });
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
  const embedding = new BackgroundEmbedding({ search, lock, model: chosen?.label ?? null });

  let switching: Promise<void> = Promise.resolve();
  const switchTo = (saved: string | null | undefined): Promise<void> => {
    const run = async () => {
      const next = deps.modelFor(saved);
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
  const follow = () => {
    // Dexie's live query sees this tab's write and another tab's alike.
    liveQuery(() => store.getSetting<string | null>(EMBED_MODEL_KEY)).subscribe({
      next: (saved) =>
        void switchTo(saved).catch((e: unknown) =>
          console.warn('switching the embedding model failed', e),
        ),
      error: (e: unknown) => console.warn('watching the embedding choice failed', e),
    });
  };
  return {
    search,
    embedding,
    embedder: () => embedder,
    label: () => chosen?.label ?? null,
    switchTo,
    follow,
  };
}

/** The embedding model for a saved choice: none for "None" (null, `''`) or an unknown id. */
export function embedModelFor(saved: string | null | undefined): EmbedModelSpec | null {
  return saved ? (findEmbedModel(saved) ?? null) : null;
}
