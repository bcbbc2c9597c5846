/**
 * Test fixtures shared by the strategy and writer tests: an agent, messages, conversations
 * made of rounds, and a seeded PRNG for fuzzing. Not used by production code.
 */
import type { Agent, Message, MessageRole } from '../../model';
import { defaultForgettingSettings } from '../forgetting/default-forgetting-settings';

/** An agent with defaults suitable for strategy tests. */
export function testAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    id: 'agent-1',
    kind: 'companion',
    name: 'Test',
    persona: '',
    modelId: null,
    strategy: 'forgetting',
    autoRecall: false,
    budgets: {
      replyReserve: 512,
      recallBudget: 400,
      warningFraction: 0.7,
      flushFraction: 1,
      targetFraction: 0.5,
      summaryMaxTokens: 200,
      maxSteps: 6,
      maxInvalidSteps: 2,
    },
    forgetting: defaultForgettingSettings(),
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/** A conversation of [role, text] pairs, seq from 1, ids `m1`, `m2`, … */
export function conversation(lines: ReadonlyArray<readonly [MessageRole, string]>): Message[] {
  return lines.map(([role, text], i) => ({
    id: `m${i + 1}`,
    agentId: 'agent-1',
    seq: i + 1,
    role,
    text,
    at: 1_000 * (i + 1),
    inContext: true,
    tokens: 0,
  }));
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
