import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from '../../adapters/tokenizer/llama3-tokenizer';
import type { ContextStrategy } from '../context/strategy';
import type { Message, MessageRole } from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { createEstimateTokenizer } from '../tokens/estimate-tokenizer';
import { createForgettingStrategy } from './forgetting/forgetting-strategy';
import type { ForgettingState } from './forgetting/forgetting-state';
import {
  forgetMemoryNow,
  pinMemory,
  promoteMemory,
  unpinMemory,
} from './forgetting/forgetting-operations';
import { memoriesCost } from './prompt-cost';
import { createRecencyStrategy } from './recency';
import { conversation, prng, testAgent } from './testing/fixtures';
import { createWindowStrategy } from './window';

const WORDS = ['Anna', 'Paris', 'bread', 'the', 'a', 'moved', 'cook', 'tonight', 'sister', 'rain'];
const HAN = ['你', '吃', '了', '吗', '我', '饭', '今', '天', '下', '雨', '巴', '黎'];
const ROLES: MessageRole[] = ['user', 'assistant', 'assistant', 'tool', 'event'];

function randomText(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 40);
  const parts: string[] = [];
  for (let i = 0; i < n; i += 1) {
    parts.push(
      rand() < 0.3
        ? HAN[Math.floor(rand() * HAN.length)]!
        : WORDS[Math.floor(rand() * WORDS.length)]!,
    );
    if (rand() < 0.1) parts.push(rand() < 0.5 ? '。' : '.');
  }
  return parts.join(rand() < 0.5 ? ' ' : '');
}

function randomHistory(rand: () => number, length: number): Message[] {
  const lines: Array<[MessageRole, string]> = [];
  for (let i = 0; i < length; i += 1) {
    lines.push([ROLES[Math.floor(rand() * ROLES.length)]!, randomText(rand)]);
  }
  lines.push(['user', randomText(rand)]);
  return conversation(lines);
}

const OPERATIONS = [pinMemory, unpinMemory, forgetMemoryNow, promoteMemory];

/** The UI's operations interleave with rounds: pin, unpin, forget now, promote at random. */
function randomOperation(rand: () => number, state: ForgettingState): ForgettingState {
  const ids = Object.keys(state.items);
  if (ids.length === 0 || rand() < 0.5) return state;
  const op = OPERATIONS[Math.floor(rand() * OPERATIONS.length)]!;
  const result = op(state, ids[Math.floor(rand() * ids.length)]!);
  return result.ok ? result.value : state;
}

const strategies: Array<() => ContextStrategy> = [
  () => createWindowStrategy(),
  () => createRecencyStrategy(),
  () => createForgettingStrategy(),
  () => createForgettingStrategy({ verbatimRounds: 3, includePersona: true }),
];

async function fuzz(tokenizer: Tokenizer, seed: number, cases: number): Promise<void> {
  const rand = prng(seed);
  for (let c = 0; c < cases; c += 1) {
    const full = randomHistory(rand, Math.floor(rand() * 40));
    const agent = testAgent({ persona: rand() < 0.5 ? '' : randomText(rand) });
    for (const make of strategies) {
      const strategy = make();
      let state: unknown = undefined;
      // Replay the conversation round by round so the forgetting state evolves.
      for (let end = 1; end <= full.length; end += 1 + Math.floor(rand() * 4)) {
        const history = full.slice(0, end);
        const budget = Math.floor(rand() * 400);
        const out = await strategy.select({
          agent,
          history,
          query: history[history.length - 1]!.text,
          budget,
          tokenizer,
          state,
          now: 0,
        });
        const counted =
          out.messages.reduce((s, m) => s + tokenizer.countMessage(m.role, m.text), 0) +
          memoriesCost(
            { agent, history, query: '', budget, tokenizer, state, now: 0 },
            out.memories,
          );
        expect(out.tokens, `${strategy.name} seed ${seed} case ${c}`).toBeLessThanOrEqual(budget);
        expect(out.tokens).toBe(counted);
        const seqs = out.messages.map((m) => m.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(new Set(out.memories.map((m) => m.id)).size).toBe(out.memories.length);
        if (out.state !== undefined) {
          const s = JSON.parse(JSON.stringify(out.state)) as ForgettingState;
          const placed = [...s.shortTerm, ...s.longTerm, ...s.forget];
          expect(new Set(placed).size).toBe(placed.length);
          expect(placed.sort()).toEqual(Object.keys(s.items).sort());
          expect(s.forget).toEqual([]);
          for (const item of Object.values(s.items)) {
            if (item.pinned) expect(s.shortTerm).toContain(item.id);
          }
          state = randomOperation(rand, s);
        }
      }
    }
  }
}

describe('every strategy stays within the budget', () => {
  it('F13: seeded fuzz with the estimate tokenizer (seeds 1–3)', async () => {
    for (const seed of [1, 2, 3]) await fuzz(createEstimateTokenizer(), seed, 25);
  });

  it('F13: seeded fuzz with the real Llama 3 tokenizer (seed 7)', async () => {
    await fuzz(createLlama3Tokenizer(), 7, 15);
  });
});
