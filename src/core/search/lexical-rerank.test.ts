import { describe, expect, it } from 'vitest';
import type { LexicalHit } from '../ports/lexical-index';
import { rerankLexical, type RerankMeta, type RerankOptions } from './lexical-rerank';

const hit = (id: string, score: number): LexicalHit => ({ id, kind: 'message', score });
const meta: Record<string, RerankMeta> = {
  m1: { speaker: 'ada', timeRef: false, next: 'm2' },
  m2: { speaker: 'ben', timeRef: true, prev: 'm1', next: 'm3' },
  m3: { speaker: 'ada', timeRef: false, prev: 'm2' },
};
const none = { speakers: new Set<string>(), asksWhen: false };
const ids = (hits: LexicalHit[]) => hits.map((h) => h.id);
const only = (over: Partial<RerankOptions>): RerankOptions => ({
  speakerBoost: 1,
  timeBoost: 1,
  neighbourShare: 0,
  ...over,
});
const metaOf = (id: string) => meta[id];

describe('rerankLexical', () => {
  it('V15: a turn by the speaker the query names moves ahead of a slightly better match', () => {
    const hits = [hit('m2', 1.2), hit('m3', 1)];
    const ada = { speakers: new Set(['ada']), asksWhen: false };
    expect(ids(rerankLexical(hits, ada, metaOf, only({ speakerBoost: 1.5 })))).toEqual([
      'm3',
      'm2',
    ]);
    expect(ids(rerankLexical(hits, none, metaOf, only({ speakerBoost: 1.5 })))).toEqual([
      'm2',
      'm3',
    ]);
  });

  it('V16: for a "when" question a turn that mentions a time moves ahead', () => {
    const hits = [hit('m1', 1.2), hit('m2', 1)];
    const when = { ...none, asksWhen: true };
    expect(ids(rerankLexical(hits, when, metaOf, only({ timeBoost: 1.5 })))).toEqual(['m2', 'm1']);
    expect(ids(rerankLexical(hits, none, metaOf, only({ timeBoost: 1.5 })))).toEqual(['m1', 'm2']);
  });

  it('V17: a matching neighbour gets a share of a hit; non-matching turns never enter', () => {
    const options = only({ neighbourShare: 0.4 });
    const ranked = rerankLexical(
      [hit('m1', 0.5), hit('m3', 0.6), hit('m2', 1)],
      none,
      metaOf,
      options,
    );
    expect(ids(ranked)).toEqual(['m2', 'm3', 'm1']);
    expect(ranked[0]!.score).toBeCloseTo(1 + 0.4 * (0.5 + 0.6));
    expect(ids(rerankLexical([hit('m2', 1)], none, metaOf, options))).toEqual(['m2']);
  });

  it('V21: a turn written in the month the query names moves ahead', () => {
    const june = Date.UTC(2023, 5, 20);
    const july = Date.UTC(2023, 6, 2);
    const dated = (id: string) => ({ ...meta[id], at: id === 'm1' ? july : june });
    const hits = [hit('m1', 1.2), hit('m2', 1)];
    const inJune = { ...none, months: [{ month: 5 }] };
    expect(ids(rerankLexical(hits, inJune, dated, only({ monthBoost: 1.5 })))).toEqual([
      'm2',
      'm1',
    ]);
    const inJune2022 = { ...none, months: [{ month: 5, year: 2022 }] };
    expect(ids(rerankLexical(hits, inJune2022, dated, only({ monthBoost: 1.5 })))).toEqual([
      'm1',
      'm2',
    ]);
  });
});
