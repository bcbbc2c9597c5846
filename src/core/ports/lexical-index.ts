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
  k: number;
  kinds?: VectorKind[];
  tags?: string[];
  from?: EpochMs;
  to?: EpochMs;
}

/** BM25 over recall and archival, maintained incrementally (add/remove), never rebuilt per query. */
export interface LexicalIndex {
  add(docs: LexicalDoc[]): void;
  remove(ids: string[]): void;
  search(query: LexicalQuery): LexicalHit[];
  size(): number;
}
