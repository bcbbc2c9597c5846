/** What the memory search is built from: storage, the two indexes, the embedder, the clock. */
import type { Clock } from '../ports/clock';
import type { Embedder } from '../ports/embedder';
import type { LexicalIndex } from '../ports/lexical-index';
import type { MemoryStore } from '../ports/memory-store';
import type { VectorIndex } from '../ports/vector-index';
import type { MessageRole } from '../model';
import type { VectorStore } from './vector-store';

export interface MemorySearchDeps {
  store: MemoryStore;
  lexical: LexicalIndex;
  vectors: VectorIndex | null;
  embedder: Embedder | null;
  clock: Clock;
  /** Where message embeddings persist; without it messages are embedded but not saved. */
  vectorStore?: VectorStore | null;
  /** Roles of messages worth indexing (default user + assistant). */
  indexedRoles?: readonly MessageRole[];
  /** Recency term weight in hybrid mode; default a quarter of a rank-1 RRF score. */
  recencyWeight?: number;
  recencyHalfLifeMs?: number;
  vectorDepth?: number;
  /** Weight of the vector list in hybrid fusion (the lexical list weighs 1). */
  vectorWeight?: number;
  /**
   * Lets the page paint between slices of the lexical index while an agent loads (X181), e.g.
   * a `setTimeout(0)` promise. Without it the slices run back to back.
   */
  yieldToHost?: () => Promise<void>;
}
