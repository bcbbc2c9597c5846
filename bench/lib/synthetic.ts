/**
 * Seeded synthetic memories for the benchmark: English-like text from a Zipf-distributed
 * vocabulary of pseudo-words plus some Chinese sentences, and vectors with cluster structure
 * (so "nearest neighbours" exist and recall@10 means something). Browser-safe (the Chromium
 * ingest page bundles it too).
 */
import { gaussian, mulberry32 } from './prng';

const SYLLABLES =
  'ka lo mi ne tu ra si po de an ber cor dan el fin gor hal is jun kel lim mor nor ost pra quin ret sol tam ur vin wex yor zel'.split(
    ' ',
  );
const COMMON =
  'the a and to of in is it that for was on with my you i we they this be at have not but'.split(
    ' ',
  );
const HAN =
  '我你他她们的是在有人这中大来上国个到说时要就出会可也子得年生日五月天好学家想吃饭喜欢朋友工作猫狗书电影音乐城市北京上海今明昨周末旅行公园咖啡茶生气开心'.split(
    '',
  );

const ZIPF_OFFSET = 20;

export interface TextGenerator {
  vocabulary: readonly string[];
  /** One message-like sentence of `words` words (about 10% are Chinese). */
  sentence(words?: number): string;
  /** A word drawn by frequency rank (Zipf), for queries. */
  word(): string;
}

/**
 * The vocabulary depends on `seed` only; `sampleSeed` (default `seed`) drives the sentences and
 * words drawn, so queries can share the documents' vocabulary without repeating them.
 */
export function textGenerator(
  seed: number,
  vocabularySize = 3000,
  sampleSeed = seed,
): TextGenerator {
  let random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const vocabulary: string[] = [];
  const seen = new Set<string>();
  while (vocabulary.length < vocabularySize) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i += 1) w += pick(SYLLABLES);
    if (!seen.has(w)) {
      seen.add(w);
      vocabulary.push(w);
    }
  }
  random = mulberry32(sampleSeed + 0x9e3779b9);
  // Zipf–Mandelbrot p(r) ∝ 1 / (r + 20), by inverse CDF over ranks: the offset flattens the head
  // the way removing function words does (those come from COMMON and are stop words).

  const cdf = new Float64Array(vocabularySize);
  let sum = 0;
  for (let r = 0; r < vocabularySize; r += 1) cdf[r] = sum += 1 / (r + 1 + ZIPF_OFFSET);
  const word = () => {
    const u = random() * sum;
    let lo = 0;
    let hi = vocabularySize - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  const sentence = (words = 8 + Math.floor(random() * 14)) => {
    if (random() < 0.1) {
      let s = '';
      for (let i = 0; i < words; i += 1) s += pick(HAN);
      return `${s}。`;
    }
    const out: string[] = [];
    for (let i = 0; i < words; i += 1) out.push(random() < 0.3 ? pick(COMMON) : word());
    const first = out[0]!;
    out[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `${out.join(' ')}.`;
  };
  return { vocabulary, sentence, word };
}

/**
 * `n` vectors of `dimension`, packed row-major: each is one of `clusters` random centres plus
 * Gaussian noise of `spread` (relative to a centre's norm, 1 per dimension).
 */
export function clusteredVectors(
  n: number,
  dimension: number,
  seed: number,
  clusters = 1000,
  spread = 0.8,
): Float32Array {
  const random = mulberry32(seed);
  const centres = new Float32Array(clusters * dimension);
  for (let i = 0; i < centres.length; i += 1) centres[i] = gaussian(random);
  const out = new Float32Array(n * dimension);
  for (let row = 0; row < n; row += 1) {
    const c = Math.floor(random() * clusters) * dimension;
    const base = row * dimension;
    for (let i = 0; i < dimension; i += 1)
      out[base + i] = centres[c + i]! + spread * gaussian(random);
  }
  return out;
}

/** Query vectors near rows of `data` (a data row plus noise), so each has real neighbours. */
export function queriesNear(
  data: Float32Array,
  dimension: number,
  count: number,
  seed: number,
  noise = 0.6,
): Float32Array[] {
  const random = mulberry32(seed);
  const rows = data.length / dimension;
  return Array.from({ length: count }, () => {
    const row = Math.floor(random() * rows);
    return Float32Array.from(
      data.subarray(row * dimension, (row + 1) * dimension),
      (x) => x + noise * gaussian(random),
    );
  });
}
