import { describe, expect, it } from 'vitest';
import type { VectorEntry } from '../ports/vector-index';
import { hamming, VectorMatrix } from './vector-matrix';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}

/** n vectors around `clusters` random centres, so neighbours are meaningful. */
function clustered(n: number, d: number, clusters: number, seed: number): VectorEntry[] {
  const r = rng(seed);
  const centres = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: d }, () => gaussian(r)),
  );
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % clusters]!;
    return {
      id: `v${i}`,
      kind: i % 3 === 0 ? 'passage' : 'message',
      vector: Float32Array.from(c, (x) => x + 0.7 * gaussian(r)),
    };
  });
}

function bruteForce(
  entries: VectorEntry[],
  q: Float32Array,
  k: number,
  kinds?: string[],
): string[] {
  const cos = (v: Float32Array) => {
    let dot = 0;
    let nv = 0;
    let nq = 0;
    for (let i = 0; i < v.length; i += 1) {
      dot += v[i]! * q[i]!;
      nv += v[i]! * v[i]!;
      nq += q[i]! * q[i]!;
    }
    return dot / Math.sqrt(nv * nq);
  };
  return entries
    .filter((e) => !kinds || kinds.includes(e.kind))
    .map((e) => ({ id: e.id, s: cos(e.vector) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((h) => h.id);
}

describe('VectorMatrix', () => {
  const entries = clustered(3000, 48, 30, 7);
  const queries = clustered(20, 48, 30, 99).map((e) => e.vector);

  it('R10: exact search returns the true cosine top-k, best first, with kind filters', () => {
    const m = new VectorMatrix(48);
    m.add(entries);
    expect(m.size()).toBe(3000);
    for (const q of queries) {
      const hits = m.search(q, { k: 10, mode: 'exact' });
      expect(hits.map((h) => h.id)).toEqual(bruteForce(entries, q, 10));
      for (let i = 1; i < hits.length; i += 1)
        expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
      const passages = m.search(q, { k: 5, mode: 'exact', kinds: ['passage'] });
      expect(passages.map((h) => h.id)).toEqual(bruteForce(entries, q, 5, ['passage']));
      expect(passages.every((h) => h.kind === 'passage')).toBe(true);
    }
  });

  it('R10: scores are cosines: a scaled copy of the query scores 1', () => {
    const m = new VectorMatrix(3);
    m.add([
      { id: 'a', kind: 'message', vector: Float32Array.from([2, 0, 0]) },
      { id: 'b', kind: 'message', vector: Float32Array.from([0, 5, 0]) },
    ]);
    const [best, second] = m.search(Float32Array.from([10, 0, 0]), { k: 2 });
    expect(best?.id).toBe('a');
    expect(best?.score).toBeCloseTo(1, 6);
    expect(second?.score).toBeCloseTo(0, 6);
  });

  it('R11: removed vectors are never returned and the rest stay findable (swap-remove)', () => {
    const m = new VectorMatrix(48);
    m.add(entries);
    const removed = entries.filter((_, i) => i % 4 === 1).map((e) => e.id);
    m.remove([...removed, 'not-there']);
    const kept = entries.filter((_, i) => i % 4 !== 1);
    expect(m.size()).toBe(kept.length);
    for (const q of queries.slice(0, 5)) {
      expect(m.search(q, { k: 10, mode: 'exact' }).map((h) => h.id)).toEqual(
        bruteForce(kept, q, 10),
      );
    }
    // every kept vector is still its own nearest neighbour
    for (const e of kept.slice(0, 50)) expect(m.search(e.vector, { k: 1 })[0]?.id).toBe(e.id);
  });

  it('R11: adding an existing id overwrites its vector', () => {
    const m = new VectorMatrix(2);
    m.add([{ id: 'a', kind: 'message', vector: Float32Array.from([1, 0]) }]);
    m.add([{ id: 'a', kind: 'passage', vector: Float32Array.from([0, 1]) }]);
    expect(m.size()).toBe(1);
    expect(m.search(Float32Array.from([0, 1]), { k: 1 })[0]).toMatchObject({
      id: 'a',
      kind: 'passage',
    });
  });

  it('R12: compressed search keeps recall@10 ≥ 0.9 against exact, also after inserts and removes', () => {
    const wide = clustered(20_000, 128, 100, 11);
    const r = rng(5);
    const queries = wide
      .slice(0, 30)
      .map((e) => Float32Array.from(e.vector, (x) => x + 0.5 * gaussian(r)));
    const entries = wide;
    const m = new VectorMatrix(128);
    m.add(entries.slice(0, 2000));
    m.search(queries[0]!, { k: 10, mode: 'compressed' }); // fixes the code centre
    m.add(entries.slice(2000));
    m.remove(['v5', 'v6']);
    let found = 0;
    for (const q of queries) {
      const exact = new Set(m.search(q, { k: 10, mode: 'exact' }).map((h) => h.id));
      for (const h of m.search(q, { k: 10, mode: 'compressed' })) if (exact.has(h.id)) found += 1;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
    expect(
      m.search(entries[5]!.vector, { k: 10, mode: 'compressed' }).map((h) => h.id),
    ).not.toContain('v5');
  });

  it('R10: wrong dimensions are an embedding_dimension_mismatch fault; clear empties', () => {
    const m = new VectorMatrix(4);
    expect(() => m.add([{ id: 'x', kind: 'message', vector: new Float32Array(3) }])).toThrow(
      expect.objectContaining({ code: 'embedding_dimension_mismatch' }),
    );
    expect(() => m.search(new Float32Array(5), { k: 1 })).toThrow(
      expect.objectContaining({ code: 'embedding_dimension_mismatch' }),
    );
    m.add([{ id: 'x', kind: 'message', vector: Float32Array.from([1, 1, 1, 1]) }]);
    m.clear();
    expect(m.size()).toBe(0);
    expect(m.search(Float32Array.from([1, 1, 1, 1]), { k: 3 })).toEqual([]);
  });

  it('R11: seeded differential — random adds, overwrites and removes match a from-scratch matrix', () => {
    for (const seed of [1, 2, 3]) {
      const r = rng(seed);
      const live = new Map<string, VectorEntry>();
      const m = new VectorMatrix(8);
      for (let step = 0; step < 300; step += 1) {
        if (r() < 0.6 || live.size === 0) {
          const id = `x${Math.floor(r() * 120)}`;
          const e: VectorEntry = {
            id,
            kind: r() < 0.5 ? 'message' : 'passage',
            vector: Float32Array.from({ length: 8 }, () => gaussian(r)),
          };
          live.set(id, e);
          m.add([e]);
        } else {
          const ids = [...live.keys()];
          const id = ids[Math.floor(r() * ids.length)]!;
          live.delete(id);
          m.remove([id]);
        }
      }
      const scratch = new VectorMatrix(8);
      scratch.add([...live.values()]);
      expect(m.size()).toBe(live.size);
      for (let i = 0; i < 10; i += 1) {
        const q = Float32Array.from({ length: 8 }, () => gaussian(r));
        expect(m.search(q, { k: 7, mode: 'exact' })).toEqual(
          scratch.search(q, { k: 7, mode: 'exact' }),
        );
      }
    }
  });

  it('R12: the Hamming distance of the code scan counts every differing bit, for any code width', () => {
    const r = rng(21);
    const word = () => Math.floor(r() * 2 ** 32) >>> 0;
    for (let words = 1; words <= 14; words += 1) {
      for (let trial = 0; trial < 40; trial += 1) {
        // Random codes, plus the extremes (all bits equal, all bits different) now and then.
        const extreme = trial % 10;
        const a = Uint32Array.from({ length: words * 2 }, word);
        const b = Uint32Array.from({ length: words }, (_, i) =>
          extreme === 0 ? a[words + i]! : extreme === 1 ? ~a[words + i]! >>> 0 : word(),
        );
        let expected = 0;
        for (let i = 0; i < words; i += 1) {
          const x = (a[words + i]! ^ b[i]!) >>> 0;
          for (let bit = 0; bit < 32; bit += 1) expected += (x >>> bit) & 1;
        }
        expect(hamming(a, words, b, words)).toBe(expected);
      }
    }
  });
});

describe('VectorMatrix.searchMany', () => {
  const searchModes = ['exact', 'compressed'] as const;
  for (const mode of searchModes) {
    it(`C23: one pass for several queries gives each query's own ${mode} search, hit for hit`, () => {
      const d = 70; // not a multiple of 4 or 32: the tails of the dot product and the codes count
      const entries = clustered(3000, d, 12, 23);
      const matrix = new VectorMatrix(d);
      matrix.add(entries);
      const r = rng(99);
      for (let round = 0; round < 6; round += 1) {
        const queries = Array.from({ length: 1 + (round % 3) + 1 }, () =>
          Float32Array.from({ length: d }, () => gaussian(r)),
        );
        if (round === 4) queries[1] = new Float32Array(d); // a zero query has no hits
        const kinds = round % 2 === 0 ? undefined : (['message'] as const);
        const options = { k: 50 + round * 40, mode, ...(kinds ? { kinds: [...kinds] } : {}) };
        const together = matrix.searchMany(queries, options);
        expect(together).toEqual(queries.map((q) => matrix.search(q, options)));
        expect(together[0]!.length).toBeGreaterThan(0);
      }
    });
  }
});
