/** What a vector belongs to: a recall message or an archival passage. */
export type VectorKind = 'message' | 'passage';

export interface VectorEntry {
  id: string;
  kind: VectorKind;
  vector: Float32Array;
}

export interface VectorHit {
  id: string;
  kind: VectorKind;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface VectorSearchOptions {
  k: number;
  kinds?: VectorKind[];
  /** `exact` scans every vector; `compressed` scans 1-bit codes and re-ranks with full vectors. */
  mode?: 'exact' | 'compressed' | 'auto';
}

/**
 * An agent's vectors as one packed matrix (in the embed worker in the app). Cosine top-k,
 * appended on insert and removed on delete, never rebuilt per query.
 */
export interface VectorIndex {
  add(entries: VectorEntry[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  search(query: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]>;
  /**
   * Each query's `search` result, from one pass over the vectors (C23); optional, so an index
   * without it is searched once per query.
   */
  searchMany?(queries: Float32Array[], options: VectorSearchOptions): Promise<VectorHit[][]>;
  size(): Promise<number>;
  clear(): Promise<void>;
}
