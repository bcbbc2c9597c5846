import { describe, expect, it } from 'vitest';
import { createLlama3ChatTokens } from '../../adapters/tokenizer/llama3-chat-tokens';
import type { ChatTurn } from '../../core/ports/llm-engine';
import { requestTokens } from './chat-template-tokens';
import { TurnCostMeter, webllmRatioFloor } from './turn-cost-meter';

const tokens = createLlama3ChatTokens();
const LIMIT = 900;
const WORDS = ['garden', 'violin', 'Lisbon', 'hiking', 'lemon', 'cake', 'river', 'chess', 'piano'];

/** A deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

function sentence(next: () => number): string {
  const n = 3 + Math.floor(next() * 14);
  return Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

const size = (messages: readonly ChatTurn[]) => requestTokens(tokens, messages).length;

/**
 * Replays `requests` requests of a conversation that grows by one message and now and then is
 * rewritten (an earlier message changes, or the oldest half goes) — never over `LIMIT` tokens —
 * through the meter, one request a turn.
 */
function replay(
  seed: number,
  requests: number,
  appendShare: number,
  { reply = sentence, changeShare = 0.5 }: { reply?: typeof sentence; changeShare?: number } = {},
): TurnCostMeter {
  const next = random(seed);
  const meter = new TurnCostMeter(tokens);
  const system: ChatTurn = { role: 'system', content: sentence(next) };
  let messages: ChatTurn[] = [system, { role: 'user', content: sentence(next) }];
  let output = reply(next);
  for (let i = 0; i < requests; i += 1) {
    meter.beginTurn();
    meter.record({ kind: 'step', messages, output, finishReason: 'stop' });
    const asked: ChatTurn = { role: 'user', content: sentence(next) };
    const appended = [...messages, { role: 'assistant' as const, content: output }, asked];
    if (next() < appendShare && size(appended) <= LIMIT) messages = appended;
    else {
      // A full prefill: an earlier user message changes (new memory lines), or the oldest half
      // of the history goes (a flush); then the new message.
      const history = appended.slice(1);
      const changed =
        next() < changeShare
          ? history.map((m, j) =>
              j === Math.floor(next() * history.length) && m.role === 'user'
                ? { ...m, content: sentence(next) }
                : m,
            )
          : history.slice(Math.floor(history.length / 2));
      messages = [system, ...changed];
      while (size(messages) > LIMIT && messages.length > 2) messages.splice(1, 1);
    }
    output = reply(next);
  }
  return meter;
}

/** Σ prefill_webllm ÷ Σ new_tokens, and the exact mean held per full prefill, of `meter`. */
function measure(meter: TurnCostMeter): { ratio: number; held: number; limit: number } {
  const requests = meter.turns.flatMap((t) => t.requests);
  const full = requests.filter((r) => !r.webllmReused);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    ratio: sum(requests.map((r) => r.prefillWebllm)) / sum(requests.map((r) => r.newTokens)),
    held: sum(full.map((r) => r.fullPrompt - r.newTokens)) / full.length,
    limit: Math.max(...requests.map((r) => r.fullPrompt)),
  };
}

describe('the web-llm ratio floor (V37, ADR 0184)', () => {
  it('V37: is limit ÷ (limit − held), and absent when a full prefill holds the whole limit', () => {
    expect(webllmRatioFloor(3677, 2127)).toBe(2.37);
    expect(webllmRatioFloor(3677, 1379)).toBe(1.6);
    expect(webllmRatioFloor(1000, 0)).toBe(1);
    expect(webllmRatioFloor(1000, 1000)).toBeNull();
  });

  it('V37: the summary reports the mean tokens each full prefill held from the request before', () => {
    const meter = replay(7, 60, 0.6);
    const exact = measure(meter);
    expect(meter.summary().webllm_held_mean).toBeCloseTo(exact.held, 0);
    expect(exact.held).toBeGreaterThan(0);
  });

  it('V37: no sequence of requests under the limit gets below the floor', () => {
    for (const seed of [1, 2, 3, 5, 8, 13, 21, 34]) {
      for (const appendShare of [0.3, 0.7, 0.95]) {
        const { ratio, held, limit } = measure(replay(seed, 80, appendShare));
        expect(limit).toBeLessThanOrEqual(LIMIT);
        expect(ratio).toBeGreaterThanOrEqual(limit / (limit - held));
      }
    }
  });

  it('V37: a layout that fills the limit between full prefills comes near the floor', () => {
    // Every message is appended while it fits, a full prefill halves the history, and the replies
    // are short (as a step is beside a turn's memory lines): the floor is nearly reached, so it
    // is a bound a layout can approach, not one far below every real run. (Long replies take room
    // without being new, and a prompt left at the limit resets on every request.)
    const short = { reply: () => 'Noted.', changeShare: 0 };
    const { ratio, held, limit } = measure(replay(11, 120, 1, short));
    const floor = limit / (limit - held);
    expect(ratio).toBeGreaterThanOrEqual(floor);
    expect(ratio).toBeLessThan(floor * 1.1);
  });
});
