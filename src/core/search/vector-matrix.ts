import { AppError } from '../errors';
import type {
  VectorEntry,
  VectorHit,
  VectorKind,
  VectorSearchOptions,
} from '../ports/vector-index';
import { TopK } from './top-k';

/** From this many vectors up, `mode: 'auto'` scans 1-bit codes and re-ranks (see ADR 0012). */
export const AUTO_COMPRESSED_FROM = 50_000;
/** Candidates re-ranked with full vectors after the Hamming scan, at least. */
export const RERANK_MIN = 1000;
/** …and at least this fraction of the rows (recall holds as n grows). */
export const RERANK_FRACTION = 0.02;

const KIND_CODE: Record<VectorKind, number> = { message: 0, passage: 1 };
const KINDS: readonly VectorKind[] = ['message', 'passage'];

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Hamming distance between the `words` code words of `codes` from `base` and the query code `qc`.
 * Three words at a time: their 4-bit partial counts (≤ 4 each) add up to ≤ 12 per nibble without
 * overflow, so one byte fold and one multiply serve three words. 384-d codes are 12 words, and
 * this is the hot loop of a compressed search at 10⁵–10⁶ rows.
 */
export function hamming(codes: Uint32Array, base: number, qc: Uint32Array, words: number): number {
  let h = 0;
  let w = 0;
  for (; w + 2 < words; w += 3) {
    let x = codes[base + w]! ^ qc[w]!;
    let y = codes[base + w + 1]! ^ qc[w + 1]!;
    let z = codes[base + w + 2]! ^ qc[w + 2]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    y -= (y >>> 1) & 0x55555555;
    y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
    z -= (z >>> 1) & 0x55555555;
    z = (z & 0x33333333) + ((z >>> 2) & 0x33333333);
    const sum = x + y + z;
    h += Math.imul((sum & 0x0f0f0f0f) + ((sum >>> 4) & 0x0f0f0f0f), 0x01010101) >>> 24;
  }
  for (; w < words; w += 1) h += popcount(codes[base + w]! ^ qc[w]!);
  return h;
}

/**
 * An agent's vectors as one packed row-major `Float32Array`: exact cosine top-k by dot products
 * over unit-normalised rows, and a compressed path for 10⁵–10⁶ rows that scans 1-bit sign codes
 * (of the vectors minus their mean) by Hamming distance and re-ranks the best few hundred with
 * the full vectors. Rows grow by doubling; a removed row is swapped with the last one, so the
 * matrix stays dense. Pure (no platform APIs): the embed worker hosts it behind `VectorIndex`.
 */
export class VectorMatrix {
  readonly dimension: number;
  private readonly words: number;
  private data: Float32Array;
  private codes: Uint32Array;
  private kinds: Uint8Array;
  private ids: string[] = [];
  private rowOf = new Map<string, number>();
  private rows = 0;
  private capacity = 0;
  /** The centre the sign codes are taken against, fixed at the first compressed search. */
  private center: Float32Array | null = null;
  /** Hamming distances of the last compressed search (scratch, by row). */
  private dist = new Uint16Array(0);

  constructor(dimension: number) {
    if (!Number.isInteger(dimension) || dimension <= 0) {
      throw new AppError(
        'invalid_argument',
        `Vector dimension must be a positive integer, got ${dimension}.`,
      );
    }
    this.dimension = dimension;
    this.words = Math.ceil(dimension / 32);
    this.data = new Float32Array(0);
    this.codes = new Uint32Array(0);
    this.kinds = new Uint8Array(0);
  }

  size(): number {
    return this.rows;
  }

  clear(): void {
    this.ids = [];
    this.rowOf.clear();
    this.rows = 0;
    this.capacity = 0;
    this.data = new Float32Array(0);
    this.codes = new Uint32Array(0);
    this.kinds = new Uint8Array(0);
    this.center = null;
    this.dist = new Uint16Array(0);
  }

  private reserve(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 64);
    const d = this.dimension;
    const data = new Float32Array(capacity * d);
    data.set(this.data.subarray(0, this.rows * d));
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds.subarray(0, this.rows));
    this.data = data;
    this.kinds = kinds;
    if (this.center) {
      const codes = new Uint32Array(capacity * this.words);
      codes.set(this.codes.subarray(0, this.rows * this.words));
      this.codes = codes;
    }
    this.capacity = capacity;
  }

  /** Adds vectors (normalised on the way in); an id already present is overwritten. */
  add(entries: VectorEntry[]): void {
    const d = this.dimension;
    for (const e of entries) {
      if (e.vector.length !== d) {
        throw new AppError(
          'embedding_dimension_mismatch',
          `Vector "${e.id}" has ${e.vector.length} dimensions; this index holds ${d}.`,
        );
      }
    }
    this.reserve(this.rows + entries.length);
    for (const e of entries) {
      let row = this.rowOf.get(e.id);
      if (row === undefined) {
        row = this.rows++;
        this.ids[row] = e.id;
        this.rowOf.set(e.id, row);
      }
      this.kinds[row] = KIND_CODE[e.kind];
      const base = row * d;
      let norm = 0;
      for (let i = 0; i < d; i += 1) norm += e.vector[i]! * e.vector[i]!;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let i = 0; i < d; i += 1) this.data[base + i] = e.vector[i]! * scale;
      if (this.center) this.encode(row);
    }
  }

  /** Removes vectors by id (unknown ids are ignored); the last row fills each hole. */
  remove(ids: string[]): void {
    const d = this.dimension;
    const w = this.words;
    for (const id of ids) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      const last = this.rows - 1;
      this.rowOf.delete(id);
      if (row !== last) {
        const lastId = this.ids[last]!;
        this.data.copyWithin(row * d, last * d, last * d + d);
        if (this.center) this.codes.copyWithin(row * w, last * w, last * w + w);
        this.kinds[row] = this.kinds[last]!;
        this.ids[row] = lastId;
        this.rowOf.set(lastId, row);
      }
      this.ids.length = last;
      this.rows = last;
    }
  }

  /** Top-k by cosine similarity, best first; only rows of `options.kinds` when given. */
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[] {
    return this.searchMany([query], options)[0] ?? [];
  }

  /**
   * The top-k of each query, as `search` gives it for that query alone (same hits, same order,
   * same scores), from one pass over the rows for every two queries (C23, ADR 0168): each stored
   * vector (or 1-bit code) is read once and scored against both, which is what a turn's two
   * recall queries need.
   */
  searchMany(queries: readonly Float32Array[], options: VectorSearchOptions): VectorHit[][] {
    for (const query of queries) {
      if (query.length !== this.dimension) {
        throw new AppError(
          'embedding_dimension_mismatch',
          `The query has ${query.length} dimensions; this index holds ${this.dimension}.`,
        );
      }
    }
    const results = queries.map((): VectorHit[] => []);
    const k = Math.min(Math.max(0, Math.floor(options.k)), this.rows);
    if (k === 0) return results;
    const live: { at: number; q: Float32Array }[] = [];
    queries.forEach((query, at) => {
      const q = new Float32Array(query);
      let norm = 0;
      for (let i = 0; i < q.length; i += 1) norm += q[i]! * q[i]!;
      if (norm === 0) return;
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < q.length; i += 1) q[i] = q[i]! * inv;
      live.push({ at, q });
    });
    const mask = this.kindMask(options.kinds);
    const mode = options.mode ?? 'auto';
    const compressed =
      mode === 'compressed' || (mode === 'auto' && this.rows >= AUTO_COMPRESSED_FROM);
    for (let j = 0; j < live.length; j += 2) {
      const pair = live.slice(j, j + 2);
      const qs = pair.map((p) => p.q);
      const tops = compressed ? this.searchCompressed(qs, k, mask) : this.searchExact(qs, k, mask);
      pair.forEach((p, x) => (results[p.at] = this.hitsOf(tops[x]!)));
    }
    return results;
  }

  private hitsOf(top: TopK): VectorHit[] {
    const hits: VectorHit[] = [];
    for (let i = 0; i < top.size; i += 1) {
      const row = top.items[i]!;
      hits.push({ id: this.ids[row]!, kind: KINDS[this.kinds[row]!]!, score: top.scores[i]! });
    }
    return hits;
  }

  private kindMask(kinds: VectorKind[] | undefined): number {
    if (!kinds) return 0b11;
    let mask = 0;
    for (const kind of kinds) mask |= 1 << KIND_CODE[kind];
    return mask;
  }

  private dot(q: Float32Array, row: number): number {
    const d = this.dimension;
    const data = this.data;
    let base = row * d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4, base += 4) {
      s0 += q[i]! * data[base]!;
      s1 += q[i + 1]! * data[base + 1]!;
      s2 += q[i + 2]! * data[base + 2]!;
      s3 += q[i + 3]! * data[base + 3]!;
    }
    for (; i < d; i += 1, base += 1) s0 += q[i]! * data[base]!;
    return s0 + s1 + s2 + s3;
  }

  /**
   * Both dot products of `row` with `q` and `r` into `out`, reading the row once; each sum is
   * accumulated exactly as {@link dot} accumulates it, so the scores are bit for bit the same.
   */
  private dot2(q: Float32Array, r: Float32Array, row: number, out: Float64Array): void {
    const d = this.dimension;
    const data = this.data;
    let base = row * d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let t0 = 0;
    let t1 = 0;
    let t2 = 0;
    let t3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4, base += 4) {
      const x0 = data[base]!;
      const x1 = data[base + 1]!;
      const x2 = data[base + 2]!;
      const x3 = data[base + 3]!;
      s0 += q[i]! * x0;
      s1 += q[i + 1]! * x1;
      s2 += q[i + 2]! * x2;
      s3 += q[i + 3]! * x3;
      t0 += r[i]! * x0;
      t1 += r[i + 1]! * x1;
      t2 += r[i + 2]! * x2;
      t3 += r[i + 3]! * x3;
    }
    for (; i < d; i += 1, base += 1) {
      s0 += q[i]! * data[base]!;
      t0 += r[i]! * data[base]!;
    }
    out[0] = s0 + s1 + s2 + s3;
    out[1] = t0 + t1 + t2 + t3;
  }

  /** Exact top-k of one or two queries (one pass over the rows). */
  private searchExact(qs: readonly Float32Array[], k: number, mask: number): TopK[] {
    const [q, r] = qs;
    if (r === undefined) return [this.searchExactOne(q!, k, mask)];
    const tops = [new TopK(k), new TopK(k)] as const;
    const kinds = this.kinds;
    const out = new Float64Array(2);
    let qThreshold = -Infinity;
    let rThreshold = -Infinity;
    for (let row = 0; row < this.rows; row += 1) {
      if (((1 << kinds[row]!) & mask) === 0) continue;
      this.dot2(q!, r, row, out);
      if (out[0]! > qThreshold) {
        tops[0].push(row, out[0]!);
        qThreshold = tops[0].threshold;
      }
      if (out[1]! > rThreshold) {
        tops[1].push(row, out[1]!);
        rThreshold = tops[1].threshold;
      }
    }
    return [...tops];
  }

  private searchExactOne(q: Float32Array, k: number, mask: number): TopK {
    const top = new TopK(k);
    const kinds = this.kinds;
    const data = this.data;
    const d = this.dimension;
    const tail = d - (d % 4);
    let threshold = -Infinity;
    // The dot product is inlined (not `this.dot`): this loop is the whole cost of an exact search.
    for (let row = 0, base = 0; row < this.rows; row += 1, base += d) {
      if (((1 << kinds[row]!) & mask) === 0) continue;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < tail; i += 4) {
        s0 += q[i]! * data[base + i]!;
        s1 += q[i + 1]! * data[base + i + 1]!;
        s2 += q[i + 2]! * data[base + i + 2]!;
        s3 += q[i + 3]! * data[base + i + 3]!;
      }
      for (let i = tail; i < d; i += 1) s0 += q[i]! * data[base + i]!;
      const s = s0 + s1 + s2 + s3;
      if (s > threshold) {
        top.push(row, s);
        threshold = top.threshold;
      }
    }
    return top;
  }

  private ensureCodes(): void {
    if (this.center) return;
    const d = this.dimension;
    const center = new Float32Array(d);
    for (let row = 0; row < this.rows; row += 1) {
      const base = row * d;
      for (let i = 0; i < d; i += 1) center[i] = center[i]! + this.data[base + i]!;
    }
    if (this.rows > 0) for (let i = 0; i < d; i += 1) center[i] = center[i]! / this.rows;
    this.center = center;
    this.codes = new Uint32Array(this.capacity * this.words);
    for (let row = 0; row < this.rows; row += 1) this.encode(row);
  }

  private encode(row: number): void {
    const d = this.dimension;
    const center = this.center!;
    const base = row * d;
    const out = row * this.words;
    for (let w = 0; w < this.words; w += 1) this.codes[out + w] = 0;
    for (let i = 0; i < d; i += 1) {
      if (this.data[base + i]! > center[i]!) {
        const w = out + (i >>> 5);
        this.codes[w] = this.codes[w]! | (1 << (i & 31));
      }
    }
  }

  /** The query's 1-bit code against the centre. */
  private queryCode(q: Float32Array): Uint32Array {
    const center = this.center!;
    const qc = new Uint32Array(this.words);
    for (let i = 0; i < this.dimension; i += 1) {
      if (q[i]! > center[i]!) qc[i >>> 5] = qc[i >>> 5]! | (1 << (i & 31));
    }
    return qc;
  }

  /**
   * Compressed top-k of one or two queries: one Hamming pass over the codes computes every
   * query's distances, and one pass over the rows re-ranks each query's own candidates (a row
   * that is a candidate of both is read once for both).
   */
  private searchCompressed(qs: readonly Float32Array[], k: number, mask: number): TopK[] {
    this.ensureCodes();
    const words = this.words;
    const codes = this.codes;
    const kinds = this.kinds;
    const n = this.rows;
    const m = qs.length;
    const qcs = qs.map((q) => this.queryCode(q));
    // Scratch kept between searches: a fresh 10⁵–10⁶ array per query is garbage for the next
    // turn. Row-major by query pair: dist[row * m + j].
    if (this.dist.length < n * m) this.dist = new Uint16Array(Math.max(n, this.capacity) * m);
    const dist = this.dist;
    const histograms = qs.map(() => new Int32Array(this.dimension + 2));
    const excluded = this.dimension + 1;
    let eligible = 0;
    const qc0 = qcs[0]!;
    const qc1 = qcs[1];
    const h0 = histograms[0]!;
    const h1 = histograms[1];
    for (let row = 0; row < n; row += 1) {
      const at = row * m;
      if (((1 << kinds[row]!) & mask) === 0) {
        dist[at] = excluded;
        if (qc1) dist[at + 1] = excluded;
        continue;
      }
      const base = row * words;
      const a = hamming(codes, base, qc0, words);
      dist[at] = a;
      h0[a] = h0[a]! + 1;
      if (qc1 && h1) {
        const b = hamming(codes, base, qc1, words);
        dist[at + 1] = b;
        h1[b] = h1[b]! + 1;
      }
      eligible += 1;
    }
    const want = Math.min(eligible, Math.max(RERANK_MIN, k, Math.ceil(n * RERANK_FRACTION)));
    // Per query, the smallest distance t with at least `want` rows at distance ≤ t (counting
    // selection), and how many rows at exactly t still get in (the first ones, by row).
    const limit = new Int32Array(m);
    const atLimit = new Int32Array(m);
    histograms.forEach((histogram, j) => {
      let t = 0;
      let cumulative = histogram[0]!;
      while (cumulative < want && t < this.dimension) {
        t += 1;
        cumulative += histogram[t]!;
      }
      limit[j] = t;
      atLimit[j] = want - (cumulative - histogram[t]!);
    });
    const tops = qs.map(() => new TopK(k));
    const out = new Float64Array(2);
    const q0 = qs[0]!;
    const q1 = qs[1];
    for (let row = 0; row < n; row += 1) {
      const at = row * m;
      let take0 = false;
      let take1 = false;
      const a = dist[at]!;
      if (a < limit[0]! || (a === limit[0]! && atLimit[0]! > 0)) {
        if (a === limit[0]!) atLimit[0] = atLimit[0]! - 1;
        take0 = true;
      }
      if (q1) {
        const b = dist[at + 1]!;
        if (b < limit[1]! || (b === limit[1]! && atLimit[1]! > 0)) {
          if (b === limit[1]!) atLimit[1] = atLimit[1]! - 1;
          take1 = true;
        }
      }
      if (take0 && take1 && q1) {
        this.dot2(q0, q1, row, out);
        if (out[0]! > tops[0]!.threshold) tops[0]!.push(row, out[0]!);
        if (out[1]! > tops[1]!.threshold) tops[1]!.push(row, out[1]!);
      } else if (take0) {
        const s = this.dot(q0, row);
        if (s > tops[0]!.threshold) tops[0]!.push(row, s);
      } else if (take1 && q1) {
        const s = this.dot(q1, row);
        if (s > tops[1]!.threshold) tops[1]!.push(row, s);
      }
    }
    return tops;
  }
}
