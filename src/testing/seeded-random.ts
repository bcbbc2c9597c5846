/** A seeded PRNG (mulberry32) for fuzz tests: the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from empty list');
  return item;
}

const WORDS = [
  'memory',
  'garden',
  'Ana',
  'Kyoto',
  'train',
  'soup',
  'cat',
  'Miso',
  'project',
  'deadline',
  'piano',
  '我们',
  '明天',
  '记忆',
];

/** Random text of about `words` words (some Chinese). */
export function randomText(random: () => number, words: number): string {
  return Array.from({ length: Math.max(1, words) }, () => pick(random, WORDS)).join(' ');
}
