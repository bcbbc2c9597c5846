/**
 * A memory search whose embedding model can change while the app runs (ADR 0177): every
 * service holds this one object, and `replace` swaps the search behind it for one built over
 * another embedder (or none). The loaded agent is loaded into the new search before it answers,
 * so a query never sees a half-loaded index, and calls already running on the old search finish
 * there before the new one loads: the two never write into one vector index at the same time.
 * Vectors of different models are never mixed: each search only takes rows whose stored model
 * and dimension match its own embedder (passages' `embeddingModel`, message batches' `modelId`).
 */
import type { AgentId } from '../model';
import type { SearchPage } from '../ports/memory-search';
import type { LociMemorySearch, ReembedOptions, ReembedResult } from './memory-search';

export interface SwitchableSearch extends LociMemorySearch {
  /**
   * Makes `next` the search behind this one: waits for the calls running on the current one,
   * loads the loaded agent into `next`, then sends every call to it (calls made meanwhile wait).
   * If loading fails, the current search stays and the error is thrown.
   */
  replace(next: LociMemorySearch): Promise<void>;
}

export function createSwitchableSearch(initial: LociMemorySearch): SwitchableSearch {
  let current = initial;
  /** Set while a replace runs: new calls wait for it. */
  let gate: Promise<void> | null = null;
  let running = 0;
  let drained: (() => void) | null = null;

  async function call<T>(fn: (search: LociMemorySearch) => Promise<T>): Promise<T> {
    while (gate) await gate;
    running += 1;
    try {
      return await fn(current);
    } finally {
      running -= 1;
      if (running === 0) drained?.();
    }
  }

  async function replace(next: LociMemorySearch): Promise<void> {
    while (gate) await gate;
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    try {
      if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
      drained = null;
      const agentId = current.agentId;
      if (agentId !== null) await next.loadAgent(agentId);
      current = next;
    } finally {
      gate = null;
      open();
    }
  }

  return {
    get semantic() {
      return current.semantic;
    },
    get agentId() {
      return current.agentId;
    },
    get unembedded() {
      return current.unembedded;
    },
    replace,
    reembed: (options?: ReembedOptions): Promise<ReembedResult> => call((s) => s.reembed(options)),
    search: (q) => call((s) => s.search(q)),
    searchMany: (qs) => call((s): Promise<SearchPage[]> => s.searchMany(qs)),
    searchByDate: (agentId, from, to, page, pageSize) =>
      call((s) => s.searchByDate(agentId, from, to, page, pageSize)),
    indexMessages: (messages) => call((s) => s.indexMessages(messages)),
    indexPassages: (passages) => call((s) => s.indexPassages(passages)),
    removePassages: (agentId, ids) => call((s) => s.removePassages(agentId, ids)),
    removeMessages: (agentId, ids) => call((s) => s.removeMessages(agentId, ids)),
    loadAgent: (agentId: AgentId) => call((s) => s.loadAgent(agentId)),
  };
}
