import type {
  VectorEntry,
  VectorHit,
  VectorIndex,
  VectorSearchOptions,
} from '../../core/ports/vector-index';
import { VectorMatrix } from '../../core/search/vector-matrix';

/**
 * The `VectorIndex` port over an in-process {@link VectorMatrix}, for Node tests, the benchmark
 * and the evaluation. The app hosts the same matrix in the embed worker instead.
 */
export class LocalVectorIndex implements VectorIndex {
  readonly matrix: VectorMatrix;

  constructor(dimension: number) {
    this.matrix = new VectorMatrix(dimension);
  }

  async add(entries: VectorEntry[]): Promise<void> {
    this.matrix.add(entries);
  }

  async remove(ids: string[]): Promise<void> {
    this.matrix.remove(ids);
  }

  async search(query: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
    return this.matrix.search(query, options);
  }

  async searchMany(queries: Float32Array[], options: VectorSearchOptions): Promise<VectorHit[][]> {
    return this.matrix.searchMany(queries, options);
  }

  async size(): Promise<number> {
    return this.matrix.size();
  }

  async clear(): Promise<void> {
    this.matrix.clear();
  }
}
