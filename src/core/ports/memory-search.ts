import type { AgentId, Message, MessageRole, Passage } from '../model';
import type { EpochMs } from '../units';
import type { VectorKind } from './vector-index';

export type SearchMode = 'lexical' | 'vector' | 'hybrid';

export interface SearchQuery {
  agentId: AgentId;
  text: string;
  kinds: VectorKind[];
  mode: SearchMode;
  /** 1-based page number. */
  page: number;
  pageSize: number;
  roles?: MessageRole[];
  from?: EpochMs;
  to?: EpochMs;
  sourceType?: Passage['source']['type'];
  /** Ids already in the prompt: left out of the results (automatic recall dedupe). */
  exclude?: string[];
}

export interface SearchHit {
  id: string;
  kind: VectorKind;
  /** Fused score; higher is better. Comparable only within one result list. */
  score: number;
  text: string;
  at: EpochMs;
  message?: Message;
  passage?: Passage;
}

export interface SearchPage {
  hits: SearchHit[];
  /** Matches over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One search module for the model's tools and for automatic recall: lexical BM25, vector
 * cosine, and their reciprocal-rank fusion with a recency term; plus search by date range.
 * It keeps its indexes in step with the store via {@link MemorySearch.indexMessages} and friends.
 */
export interface MemorySearch {
  search(query: SearchQuery): Promise<SearchPage>;
  /**
   * Each query's `search` page (the same hits), sharing what the queries can share: one pass
   * over the vectors for all of them (C23). Optional; without it, call `search` per query.
   */
  searchMany?(queries: SearchQuery[]): Promise<SearchPage[]>;
  searchByDate(
    agentId: AgentId,
    from: EpochMs,
    to: EpochMs,
    page: number,
    pageSize: number,
  ): Promise<SearchPage>;
  /** Adds written messages to the indexes (embedding them when an embedder is present). */
  indexMessages(messages: Message[]): Promise<void>;
  indexPassages(passages: Passage[]): Promise<void>;
  removePassages(agentId: AgentId, ids: string[]): Promise<void>;
  /** Drops deleted messages from the lexical and vector indexes (ADR 0143). */
  removeMessages(agentId: AgentId, ids: string[]): Promise<void>;
  /** Loads an agent's indexes from the store (on open / agent switch). */
  loadAgent(agentId: AgentId): Promise<void>;
}
