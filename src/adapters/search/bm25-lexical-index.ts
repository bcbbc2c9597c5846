import type {
  LexicalDoc,
  LexicalHit,
  LexicalIndex,
  LexicalPage,
  LexicalQuery,
} from '../../core/ports/lexical-index';
import type { VectorKind } from '../../core/ports/vector-index';
import { tokenize } from '../../core/search/tokenize';
import { HitHeap } from './hit-heap';

/** BM25+ parameters (k₁, b, δ): MiniSearch 7's defaults, which the eval figures were tuned on. */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
/** Results kept for repeated queries (paging through one tool search, auto-recall repeating it). */
const CACHED_QUERIES = 8;
/** A term's postings are compacted once this many of them belong to removed documents. */
const COMPACT_AFTER = 64;
const KIND_CODE: Record<VectorKind, number> = { message: 0, passage: 1 };
const KINDS: readonly VectorKind[] = ['message', 'passage'];

interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  length: number;
  /** Postings of live documents: the term's document frequency. */
  live: number;
}

function grown<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array>(
  array: T,
  needed: number,
): T {
  if (needed <= array.length) return array;
  let size = Math.max(16, array.length);
  while (size < needed) size *= 2;
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}

/**
 * BM25+ over recall messages and archival passages (R2–R4, R30), with Loci's English + Chinese
 * tokenizer, on an inverted index of typed arrays (ADR 0101). It scores exactly as MiniSearch 7
 * did — BM25+ (k₁ 1.2, b 0.7, δ 0.5) on the number of distinct terms of a document, summed over
 * the query's terms and multiplied by how many distinct query terms a document matches, ties in
 * the order MiniSearch returned them — but it touches each posting once with plain arithmetic
 * instead of building a result object per match, filters while it scores, and keeps only the
 * best `k` (a bounded heap) while it counts the rest for page totals. Incremental: `add` indexes
 * (re-adding an id replaces it), `remove` marks documents dead and their postings are compacted
 * when enough have died.
 */
export class Bm25LexicalIndex implements LexicalIndex {
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly docNums = new Map<string, number>();
  private readonly tagCodes = new Map<string, number>();
  private ids: string[] = [];
  private docTerms: (Int32Array | null)[] = [];
  private kinds = new Uint8Array(0);
  private tags = new Uint16Array(0);
  private ats = new Float64Array(0);
  private lengths = new Uint32Array(0);
  private alive = new Uint8Array(0);
  private next = 0;
  private live = 0;
  private totalLength = 0;
  // Per-query scratch, indexed by document number.
  private stamp = new Uint32Array(0);
  private excluded = new Uint32Array(0);
  private score = new Float64Array(0);
  private matched = new Uint16Array(0);
  private first = new Uint16Array(0);
  private touched = new Int32Array(0);
  private generation = 0;
  private version = 0;
  private cacheVersion = 0;
  private readonly cache = new Map<string, LexicalPage>();

  add(docs: LexicalDoc[]): void {
    this.version += 1;
    // Re-adding an id inside one batch: only its last version is indexed.
    const last = new Map(docs.map((d) => [d.id, d]));
    for (const doc of last.values()) {
      const old = this.docNums.get(doc.id);
      if (old !== undefined) this.drop(old);
      this.insert(doc);
    }
  }

  remove(ids: string[]): void {
    this.version += 1;
    for (const id of ids) {
      const num = this.docNums.get(id);
      if (num !== undefined) this.drop(num);
    }
  }

  search(query: LexicalQuery): LexicalHit[] {
    return this.searchPage(query).hits;
  }

  searchPage(query: LexicalQuery): LexicalPage {
    if (query.k <= 0 || this.live === 0) return { hits: [], total: 0 };
    if (this.cacheVersion !== this.version) {
      this.cache.clear();
      this.cacheVersion = this.version;
    }
    const key = JSON.stringify([
      query.text,
      query.k,
      query.kinds,
      query.tags,
      query.tagsByKind,
      query.exclude,
      query.from,
      query.to,
    ]);
    let page = this.cache.get(key);
    if (page)
      this.cache.delete(key); // re-inserted below: the Map's order is the LRU order
    else {
      page = this.run(query);
      if (this.cache.size >= CACHED_QUERIES) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, page);
    // Copies (the cache keeps its own), written out: an object spread per hit cost more than the
    // scoring pass of a frequent word (ADR 0096).
    const hits: LexicalHit[] = [];
    for (const h of page.hits) hits.push({ id: h.id, kind: h.kind, score: h.score });
    return { hits, total: page.total };
  }

  size(): number {
    return this.live;
  }

  /** Forgets everything (agent switch). */
  clear(): void {
    this.version += 1;
    this.termIds.clear();
    this.postings.length = 0;
    this.docNums.clear();
    this.tagCodes.clear();
    this.ids = [];
    this.docTerms = [];
    this.next = 0;
    this.live = 0;
    this.totalLength = 0;
    this.alive = new Uint8Array(0);
    this.stamp = new Uint32Array(0);
    this.excluded = new Uint32Array(0);
  }

  private insert(doc: LexicalDoc): void {
    const num = this.next;
    this.next += 1;
    this.ensure(this.next);
    const counts = new Map<string, number>();
    for (const term of tokenize(doc.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const terms = new Int32Array(counts.size);
    let i = 0;
    for (const [term, tf] of counts) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.postings.length;
        this.termIds.set(term, id);
        this.postings.push({
          docs: new Int32Array(4),
          tfs: new Uint16Array(4),
          length: 0,
          live: 0,
        });
      }
      const p = this.postings[id]!;
      if (p.length === p.docs.length) {
        p.docs = grown(p.docs, p.length + 1);
        p.tfs = grown(p.tfs, p.length + 1);
      }
      p.docs[p.length] = num;
      p.tfs[p.length] = Math.min(tf, 0xffff);
      p.length += 1;
      p.live += 1;
      terms[i++] = id;
    }
    let tag = this.tagCodes.get(doc.tag);
    if (tag === undefined) {
      tag = this.tagCodes.size;
      this.tagCodes.set(doc.tag, tag);
    }
    this.ids[num] = doc.id;
    this.docTerms[num] = terms;
    this.kinds[num] = KIND_CODE[doc.kind];
    this.tags[num] = tag;
    this.ats[num] = doc.at;
    // MiniSearch's field length: the number of distinct terms.
    this.lengths[num] = counts.size;
    this.alive[num] = 1;
    this.docNums.set(doc.id, num);
    this.live += 1;
    this.totalLength += counts.size;
  }

  private drop(num: number): void {
    this.alive[num] = 0;
    this.docNums.delete(this.ids[num]!);
    this.ids[num] = '';
    this.live -= 1;
    this.totalLength -= this.lengths[num]!;
    for (const id of this.docTerms[num] ?? []) {
      const p = this.postings[id]!;
      p.live -= 1;
      if (p.length - p.live >= COMPACT_AFTER && p.length - p.live > p.live) this.compact(p);
    }
    this.docTerms[num] = null;
  }

  private compact(p: Postings): void {
    let w = 0;
    for (let r = 0; r < p.length; r += 1) {
      const num = p.docs[r]!;
      if (this.alive[num] !== 1) continue;
      p.docs[w] = num;
      p.tfs[w] = p.tfs[r]!;
      w += 1;
    }
    p.length = w;
  }

  private ensure(size: number): void {
    this.kinds = grown(this.kinds, size);
    this.tags = grown(this.tags, size);
    this.ats = grown(this.ats, size);
    this.lengths = grown(this.lengths, size);
    this.alive = grown(this.alive, size);
    this.stamp = grown(this.stamp, size);
    this.excluded = grown(this.excluded, size);
    this.score = grown(this.score, size);
    this.matched = grown(this.matched, size);
    this.first = grown(this.first, size);
    this.touched = grown(this.touched, size);
  }

  /** The query's distinct terms in first-seen order, each with how often the query repeats it. */
  private queryTerms(text: string): { id: number; times: number }[] {
    const out = new Map<number, { id: number; times: number }>();
    for (const term of tokenize(text)) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const entry = out.get(id);
      if (entry) entry.times += 1;
      else out.set(id, { id, times: 1 });
    }
    return [...out.values()];
  }

  private nextGeneration(): number {
    this.generation += 1;
    if (this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.excluded.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  /** One scoring pass (term at a time) over the query's postings, then filter, count and select. */
  private run(query: LexicalQuery): LexicalPage {
    const terms = this.queryTerms(query.text);
    if (terms.length === 0) return { hits: [], total: 0 };
    const gen = this.nextGeneration();
    const { stamp, score, matched, first, touched, alive, lengths } = this;
    const n = this.live;
    const averageLength = this.totalLength / n;
    let count = 0;
    terms.forEach((term, order) => {
      const p = this.postings[term.id]!;
      if (p.live === 0) return;
      const idf = Math.log(1 + (n - p.live + 0.5) / (p.live + 0.5));
      const weight = term.times * idf;
      for (let j = 0; j < p.length; j += 1) {
        const num = p.docs[j]!;
        if (alive[num] !== 1) continue;
        const tf = p.tfs[j]!;
        const norm = K1 * (1 - B + (B * lengths[num]!) / averageLength);
        const s = weight * (DELTA + (tf * (K1 + 1)) / (tf + norm));
        if (stamp[num] !== gen) {
          stamp[num] = gen;
          score[num] = s;
          matched[num] = 1;
          first[num] = order;
          touched[count] = num;
          count += 1;
        } else {
          score[num]! += s;
          matched[num]! += 1;
        }
      }
    });
    const keep = this.filter(query, gen);
    const heap = new HitHeap(Math.min(query.k, count), first);
    let total = 0;
    for (let i = 0; i < count; i += 1) {
      const num = touched[i]!;
      if (!keep(num)) continue;
      total += 1;
      heap.offer(num, score[num]! * matched[num]!);
    }
    const nums = new Int32Array(heap.k);
    const scores = new Float64Array(heap.k);
    const kept = heap.drain(nums, scores);
    const hits: LexicalHit[] = [];
    for (let i = 0; i < kept; i += 1) {
      const num = nums[i]!;
      hits.push({ id: this.ids[num]!, kind: KINDS[this.kinds[num]!]!, score: scores[i]! });
    }
    return { hits, total };
  }

  private filter(query: LexicalQuery, gen: number): (num: number) => boolean {
    const codes = (names: readonly string[] | undefined) =>
      names === undefined
        ? null
        : new Set(names.map((t) => this.tagCodes.get(t)).filter((c) => c !== undefined));
    const kinds = query.kinds ? new Set(query.kinds.map((k) => KIND_CODE[k])) : null;
    const tags = codes(query.tags);
    const byKind = KINDS.map((kind) => codes(query.tagsByKind?.[kind]));
    const excluded = this.excluded;
    for (const id of query.exclude ?? []) {
      const num = this.docNums.get(id);
      if (num !== undefined) excluded[num] = gen;
    }
    const { from, to } = query;
    return (num) => {
      if (excluded[num] === gen) return false;
      const kind = this.kinds[num]!;
      if (kinds !== null && !kinds.has(kind)) return false;
      const tag = this.tags[num]!;
      if (tags !== null && !tags.has(tag)) return false;
      const own = byKind[kind];
      if (own && !own.has(tag)) return false;
      const at = this.ats[num]!;
      return (from === undefined || at >= from) && (to === undefined || at <= to);
    };
  }
}
