/**
 * Small in-memory fakes of the store and search slices the writing mode uses, for tests: the
 * store keeps settings and passages; the search ranks passages by shared words with the query
 * (a stand-in for semantic similarity) and honours `exclude`. Not used by production code.
 */
import type { Agent, Passage } from '../../model';
import type { Clock, IdSource } from '../../ports/clock';
import type { SearchHit, SearchPage, SearchQuery } from '../../ports/memory-search';
import type { ChangeSet } from '../../ports/memory-store';
import type { WriterDeps } from '../writer-deps';

export class FakeWriterStore {
  readonly settings = new Map<string, unknown>();
  readonly passages = new Map<string, Passage>();
  readonly applied: ChangeSet[] = [];

  async apply(changes: ChangeSet) {
    this.applied.push(changes);
    for (const p of changes.passages ?? []) this.passages.set(p.id, p);
    return { messages: [] };
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    const value = this.settings.get(key);
    return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    this.settings.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const words = (text: string): Set<string> =>
  new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export class FakeWriterSearch {
  readonly indexed = new Map<string, Passage>();
  readonly queries: SearchQuery[] = [];

  async indexPassages(passages: Passage[]): Promise<void> {
    for (const p of passages) this.indexed.set(p.id, p);
  }

  async removePassages(_agentId: string, ids: string[]): Promise<void> {
    for (const id of ids) this.indexed.delete(id);
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    this.queries.push(query);
    const q = words(query.text);
    const hits: SearchHit[] = [...this.indexed.values()]
      .filter((p) => p.agentId === query.agentId && !(query.exclude ?? []).includes(p.id))
      .map((p) => ({
        id: p.id,
        kind: 'passage' as const,
        score: [...words(p.text)].filter((w) => q.has(w)).length,
        text: p.text,
        at: p.at,
        passage: p,
      }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score);
    return {
      hits: hits.slice(0, query.pageSize),
      total: hits.length,
      page: 1,
      pageSize: query.pageSize,
    };
  }
}

/** A clock that ticks one second per call, and counting ids. */
export function fakeClockAndIds(): { clock: Clock; ids: IdSource } {
  let t = 1_700_000_000_000;
  let n = 0;
  return {
    clock: { now: () => (t += 1000) },
    ids: { next: (prefix = 'id') => `${prefix}-${(n += 1)}` },
  };
}

/** Deps around a given engine with fresh fakes. */
export function fakeWriterDeps(engine: WriterDeps['engine']): WriterDeps & {
  store: FakeWriterStore;
  search: FakeWriterSearch;
} {
  return {
    engine,
    store: new FakeWriterStore(),
    search: new FakeWriterSearch(),
    ...fakeClockAndIds(),
  };
}

/** A writing-project agent. */
export function writerAgent(kind: 'writer' | 'fiction' = 'writer'): Agent {
  return {
    id: `agent-${kind}`,
    kind,
    name: kind === 'fiction' ? 'The Cellar' : 'The Lighthouse',
    persona: '',
    modelId: null,
    strategy: 'window',
    autoRecall: false,
    budgets: {
      replyReserve: 1280,
      recallBudget: 400,
      warningFraction: 0.7,
      flushFraction: 1,
      targetFraction: 0.5,
      summaryMaxTokens: 200,
      maxSteps: 6,
      maxInvalidSteps: 2,
    },
    forgetting: { recallThreshold: 0.9, forgetThreshold: 1.5, relevanceTarget: 0.6, maxGram: 3 },
    createdAt: 0,
    updatedAt: 0,
  };
}

/** A writing step's JSON as the model would answer it (`plans` become plan_1…plan_3). */
export function stepJson(step: {
  section: string;
  memory: string;
  plans: readonly string[];
  removed?: string;
  added?: string;
}): string {
  const [plan_1, plan_2, plan_3] = step.plans;
  return JSON.stringify({
    section: step.section,
    memory_removed: step.removed ?? 'nothing',
    memory_added: step.added ?? 'the new section',
    memory: step.memory,
    plan_1,
    plan_2,
    plan_3,
  });
}
