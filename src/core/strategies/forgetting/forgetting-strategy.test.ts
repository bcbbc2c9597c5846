import { describe, expect, it } from 'vitest';
import type { StrategyInput } from '../../context/strategy';
import type { Message, MessageRole } from '../../model';
import { createEstimateTokenizer } from '../../tokens/estimate-tokenizer';
import { conversation, testAgent } from '../testing/fixtures';
import { createForgettingStrategy } from './forgetting-strategy';
import type { ForgettingState } from './forgetting-state';
import { forgetMemoryNow, pinMemory, promoteMemory, unpinMemory } from './forgetting-operations';
import {
  MAX_FORGETTING_ITEMS,
  emptyForgettingState,
  parseForgettingState,
} from './forgetting-state';
import { forgettingRows } from './forgetting-rows';
import { defaultForgettingSettings } from './default-forgetting-settings';
import { MEMORY_SECTION_HEADER } from '../prompt-cost';

const tokenizer = createEstimateTokenizer();

function input(history: Message[], state: unknown, budget = 4000, persona = ''): StrategyInput {
  const last = history[history.length - 1];
  return {
    agent: testAgent({ persona }),
    history,
    query: last?.text ?? '',
    budget,
    tokenizer,
    state,
    now: 0,
  };
}

const talk: Array<[MessageRole, string]> = [
  ['user', 'My sister Anna moved to Paris last year.'],
  ['assistant', 'That sounds exciting for her!'],
  ['user', 'I am learning to bake sourdough bread.'],
  ['tool', '{"ok":true}'],
  ['assistant', 'Sourdough takes patience.'],
  ['user', 'What should I cook tonight?'],
];

async function run(history: Message[], state: unknown, budget?: number, persona?: string) {
  const strategy = createForgettingStrategy({ includePersona: persona !== undefined });
  const out = await strategy.select(input(history, state, budget, persona));
  return { out, state: out.state as ForgettingState };
}

describe('forgetting strategy', () => {
  it('F5: every completed round becomes one short-term item; tool lines are left out', async () => {
    const { state } = await run(conversation(talk), undefined);
    expect(state.shortTerm).toEqual(['m1', 'm3']);
    expect(state.items.m3!.lines.map((l) => l.role)).toEqual(['user', 'assistant']);
    expect(state.lastSeq).toBe(5);
    expect(state.rounds).toBe(1);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('F7: the current round and the last completed round are verbatim, older items are memories', async () => {
    const { out } = await run(conversation(talk), undefined, 4000, 'You are warm and brief.');
    expect(out.messages.map((m) => m.id)).toEqual(['m3', 'm4', 'm5', 'm6']);
    expect(out.memories.map((m) => [m.id, m.origin])).toEqual([
      ['persona', 'persona'],
      ['m1', 'short_term'],
    ]);
    expect(out.memories[1]!.text).toContain('user: My sister Anna');
  });

  it('F6: calling the strategy again in the same round does not move F a second time', async () => {
    const history = conversation(talk);
    const first = await run(history, undefined);
    const again = await run(history, JSON.parse(JSON.stringify(first.state)));
    expect(again.state).toEqual(first.state);
    const next = await run(
      conversation([...talk, ['assistant', 'Pasta.'], ['user', 'Thanks!']]),
      first.state,
    );
    expect(next.state.rounds).toBe(2);
    expect(next.state.items.m1!.forget).not.toBe(first.state.items.m1!.forget);
  });

  it('F7: when short-term does not fit, the lowest-R items are left out first', async () => {
    const long: Array<[MessageRole, string]> = [];
    for (let i = 0; i < 6; i += 1) {
      long.push(['user', `Round ${i} talks about topic${i} at some length to take space.`]);
      long.push(['assistant', `Noted topic${i}.`]);
    }
    long.push(['user', 'Tell me about topic2 and topic4 again']);
    const history = conversation(long);
    const all = await run(history, undefined, 10_000);
    const memoryIds = all.out.memories.map((m) => m.id);
    expect(memoryIds).toHaveLength(5);
    // Budget for the verbatim part plus two memories only.
    const verbatim = all.out.messages.reduce(
      (s, m) => s + tokenizer.countMessage(m.role, m.text),
      0,
    );
    const two = all.out.memories
      .filter((m) => m.id === 'm5' || m.id === 'm9')
      .reduce((s, m) => s + m.tokens, tokenizer.countMessage('user', MEMORY_SECTION_HEADER));
    const tight = await run(history, undefined, verbatim + two);
    expect(tight.out.memories.map((m) => m.id)).toEqual(['m5', 'm9']);
    expect(tight.out.tokens).toBeLessThanOrEqual(verbatim + two);
  });

  it('F7: a pinned item goes in before higher-R items', async () => {
    const first = await run(conversation(talk), undefined);
    const pinned = pinMemory(first.state, 'm1');
    expect(pinned.ok).toBe(true);
    if (!pinned.ok) return;
    const history = conversation([...talk, ['assistant', 'Pasta.'], ['user', 'And sourdough?']]);
    const rerun = await createForgettingStrategy({ verbatimRounds: 0 }).select(
      input(history, pinned.value),
    );
    expect(rerun.memories[0]!.id).toBe('m1');
  });

  it('F14: a fact is forgotten after 16 unrelated rounds and recalled when it is asked about', async () => {
    const lines: Array<[MessageRole, string]> = [
      ['user', 'My sister Anna moved to Paris last spring.'],
      ['assistant', 'Lovely! Does she like it there?'],
    ];
    for (let i = 0; i < 17; i += 1) {
      lines.push(['user', `Topic${i} question${i}`]);
      lines.push(['assistant', `Answer${i}`]);
    }
    const strategy = createForgettingStrategy();
    let state: ForgettingState | undefined;
    const where: string[] = [];
    for (let end = 3; end <= lines.length + 1; end += 2) {
      const history = conversation(
        end <= lines.length
          ? lines.slice(0, end)
          : [...lines, ['user', 'Where does Anna live now?']],
      );
      const out = await strategy.select(input(history, state));
      state = out.state as ForgettingState;
      where.push(state.shortTerm.includes('m1') ? 'short' : 'long');
      if (end > lines.length) {
        expect(state.lastMoves.recalled).toContain('m1');
        expect(out.memories.map((m) => m.id)).toContain('m1');
      }
    }
    // Rounds 1–15 keep it; the 16th unrelated update forgets it; the question brings it back.
    expect(where.slice(0, 15).every((w) => w === 'short')).toBe(true);
    expect(where[15]).toBe('long');
    expect(where[where.length - 1]).toBe('short');
  });

  it('F4: a Chinese memory in long-term is recalled by a question that shares its keyword', async () => {
    const zh: Array<[MessageRole, string]> = [
      ['user', '我妹妹去年搬到巴黎了。'],
      ['assistant', '真好！她喜欢那里吗？'],
      ['user', '今天天气怎么样？'],
      ['assistant', '晴天。'],
      ['user', '推荐一本书。'],
    ];
    const first = await run(conversation(zh), undefined);
    const forgotten = forgetMemoryNow(first.state, 'm1');
    expect(forgotten.ok).toBe(true);
    if (!forgotten.ok) return;
    const asked = await run(
      conversation([...zh, ['assistant', '《活着》。'], ['user', '你记得我妹妹住在哪里吗？']]),
      forgotten.value,
    );
    expect(asked.state.lastMoves.recalled).toEqual(['m1']);
    expect(asked.state.items.m1!.relevance).toBeGreaterThanOrEqual(0.9);
    expect(asked.out.memories.map((m) => m.id)).toContain('m1');
  });

  it('F8: a malformed state is a fault, not silently dropped', () => {
    expect(() => parseForgettingState({ version: 1 })).toThrowError(/malformed/);
    const bad = { ...parseForgettingState(undefined), items: { x: {} } };
    expect(() => parseForgettingState(bad)).toThrowError(/partition/);
  });
});

/** A state of `n` long-term items (the first `pinned` pinned), as a long conversation leaves it. */
function bigState(n: number, pinned = 0): ForgettingState {
  const state = emptyForgettingState();
  for (let i = 0; i < n; i += 1) {
    const id = `old${i}`;
    state.items[id] = {
      id,
      lines: [{ role: 'user', text: `Old note ${i} about topic ${i % 97}.` }],
      fromSeq: -n + i,
      toSeq: -n + i,
      at: 0,
      relevance: (i % 101) / 101,
      forget: 2,
      pinned: i < pinned,
    };
    state.longTerm.push(id);
  }
  return state;
}

describe('forgetting state bounds (X169, item 11)', () => {
  it('X169: the kept items are capped; the least relevant long-term ones go, never a pinned or short-term one', async () => {
    const start = bigState(MAX_FORGETTING_ITEMS + 500, 3);
    const { state } = await run(conversation(talk), start);
    const kept = Object.keys(state.items);
    expect(kept.length).toBe(MAX_FORGETTING_ITEMS);
    expect(state.longTerm.length + state.shortTerm.length + state.forget.length).toBe(kept.length);
    for (const id of ['old0', 'old1', 'old2', 'm1', 'm3']) expect(state.items[id]).toBeDefined();
    const dropped = Object.keys(start.items).filter((id) => state.items[id] === undefined);
    // Two rounds came in (m1, m3), so 502 old items went; none pinned.
    expect(dropped).toHaveLength(502);
    expect(dropped.some((id) => start.items[id]!.pinned)).toBe(false);
    expect(() => parseForgettingState(JSON.parse(JSON.stringify(state)))).not.toThrow();
  });

  it('X169: a second step in the same round returns the state it was given, so nothing is rewritten', async () => {
    const history = conversation(talk);
    const first = await run(history, undefined);
    const stored = JSON.parse(JSON.stringify(first.state)) as ForgettingState;
    const again = await run(history, stored);
    expect(again.out.state).toBe(stored);
  });
});

describe('forgetting operations', () => {
  it('F9: pin, unpin, forget now and promote move items and report misuse as values', async () => {
    const { state } = await run(conversation(talk), undefined);
    const forgotten = forgetMemoryNow(state, 'm1');
    expect(forgotten.ok && forgotten.value.longTerm).toEqual(['m1']);
    if (!forgotten.ok) return;
    const again = forgetMemoryNow(forgotten.value, 'm1');
    expect(again.ok ? null : again.error.type).toBe('wrong_container');
    const promoted = promoteMemory(forgotten.value, 'm1');
    expect(promoted.ok && promoted.value.shortTerm).toEqual(['m3', 'm1']);
    expect(promoted.ok && promoted.value.items.m1!.forget).toBe(0);
    const pinnedFromLong = pinMemory(forgotten.value, 'm1');
    expect(pinnedFromLong.ok && pinnedFromLong.value.items.m1!.pinned).toBe(true);
    expect(pinnedFromLong.ok && pinnedFromLong.value.shortTerm).toContain('m1');
    if (!pinnedFromLong.ok) return;
    const unpinned = unpinMemory(pinnedFromLong.value, 'm1');
    expect(unpinned.ok && unpinned.value.items.m1!.pinned).toBe(false);
    const rows = forgettingRows(pinnedFromLong.value, defaultForgettingSettings(), 12);
    expect(rows.map((r) => [r.id, r.container, r.pinned])).toEqual([
      ['m1', 'short_term', true],
      ['m3', 'short_term', false],
    ]);
    expect(rows[0]!.preview).toBe('My sister A…');
    expect(rows[1]!.forgetProgress).toBe(Math.min(1, Math.max(0, rows[1]!.forget / 1.5)));
    const missing = promoteMemory(state, 'nope');
    expect(missing.ok ? null : missing.error.type).toBe('unknown_item');
  });
});
