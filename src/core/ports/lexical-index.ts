import type { EpochMs } from '../units';
import type { VectorKind } from './vector-index';

/** A document of the lexical index: a recall message or an archival passage. */
export interface LexicalDoc {
  id: string;
  kind: VectorKind;
  text: string;
  at: EpochMs;
  /** Message role or passage source type, for filters. */
  tag: string;
}

export interface LexicalHit {
  id: string;
  kind: VectorKind;
  score: number;
}

export interface LexicalQuery {
  text: string;
  /** At most this many hits, best first. */
  k: number;
  kinds?: VectorKind[];
  tags?: string[];
  /** Tags allowed per kind (message roles, passage source types); a kind not named is not filtered. */
  tagsByKind?: Partial<Record<VectorKind, readonly string[]>>;
  /** Ids never returned nor counted (the messages already in the prompt). */
  exclude?: readonly string[];
  from?: EpochMs;
  to?: EpochMs;
}

/** The best `k` hits of a query and how many documents match it in all (R30). */
export interface LexicalPage {
  hits: LexicalHit[];
  total: number;
}

/** BM25 over recall and archival, maintained incrementally (add/remove), never rebuilt per query. */
export interface LexicalIndex {
  add(docs: LexicalDoc[]): void;
  remove(ids: string[]): void;
  /** The best `query.k` hits, best first. */
  search(query: LexicalQuery): LexicalHit[];
  /** The best `query.k` hits with the number of all matching documents (for page totals). */
  searchPage(query: LexicalQuery): LexicalPage;
  size(): number;
}
