import { describe, expect, it } from 'vitest';
import type { ForgettingSettings } from '../../model';
import { defaultForgettingSettings } from './default-forgetting-settings';
import { forgettingRound } from './forgetting-round';
import type { ForgettingItem, ForgettingState } from './forgetting-state';
import { emptyForgettingState } from './forgetting-state';

function item(id: string, text: string, patch: Partial<ForgettingItem> = {}): ForgettingItem {
  return {
    id,
    lines: [{ role: 'user', text }],
    fromSeq: 1,
    toSeq: 1,
    at: 0,
    relevance: 0.5,
    forget: 0,
    pinned: false,
    ...patch,
  };
}

function stateWith(short: ForgettingItem[], long: ForgettingItem[] = []): ForgettingState {
  const items: Record<string, ForgettingItem> = {};
  for (const i of [...short, ...long]) items[i.id] = i;
  return {
    ...emptyForgettingState(),
    items,
    shortTerm: short.map((i) => i.id),
    longTerm: long.map((i) => i.id),
  };
}

describe('forgettingRound', () => {
  const settings = defaultForgettingSettings();

  it('F3: F accumulates tanh(R̂ − R) each round, and the input state is never mutated', () => {
    let state = stateWith([Object.freeze(item('a', 'the cat sat on the mat'))]);
    Object.freeze(state.items);
    state = forgettingRound(state, 'quantum chromodynamics', settings);
    expect(state.items.a!.relevance).toBe(0.5);
    expect(state.items.a!.forget).toBeCloseTo(Math.tanh(0.1), 12);
    state = forgettingRound(state, 'quantum chromodynamics', settings);
    expect(state.items.a!.forget).toBeCloseTo(2 * Math.tanh(0.1), 12);
  });

  it('F14: under the defaults an unrelated memory is forgotten on the 16th unrelated round', () => {
    let state = stateWith([item('a', 'the cat sat on the mat')]);
    for (let round = 1; round <= 15; round += 1) {
      state = forgettingRound(state, 'quantum chromodynamics', settings);
      expect(state.shortTerm).toEqual(['a']);
    }
    state = forgettingRound(state, 'quantum chromodynamics', settings);
    expect(state.shortTerm).toEqual([]);
    expect(state.longTerm).toEqual(['a']);
    expect(state.lastMoves.forgotten).toEqual(['a']);
  });

  it('F3: a relevant round lowers F', () => {
    let state = stateWith([item('a', 'Anna moved to Paris last year')]);
    state = forgettingRound(state, 'Is Anna happy in Paris?', settings);
    expect(state.items.a!.relevance).toBeGreaterThan(0.99);
    expect(state.items.a!.forget).toBeLessThan(-0.37);
  });

  it('F4: a long-term memory with R ≥ R₀ returns to short-term with a fresh F; others stay', () => {
    const state = forgettingRound(
      stateWith(
        [],
        [
          item('paris', 'Anna moved to Paris last year', { forget: 1.7 }),
          item('beach', 'I want to go to the beach', { forget: 1.6 }),
        ],
      ),
      'Is Anna still in Paris?',
      settings,
    );
    expect(state.shortTerm).toEqual(['paris']);
    expect(state.longTerm).toEqual(['beach']);
    expect(state.items.paris!.forget).toBe(0);
    expect(state.lastMoves.recalled).toEqual(['paris']);
  });

  it('F4: a memory forgotten in step 1 goes to long-term, not back to short-term the same round', () => {
    // R₀ below R̂ makes an item both "not relevant enough to hold" and "relevant enough to recall".
    const odd: ForgettingSettings = { ...settings, recallThreshold: 0.55, relevanceTarget: 0.999 };
    let state = stateWith([item('a', 'Anna moved to Paris', { forget: 1.49 })]);
    state = forgettingRound(state, 'Anna', odd);
    expect(state.longTerm).toEqual(['a']);
    expect(state.shortTerm).toEqual([]);
    expect(state.forget).toEqual([]);
    state = forgettingRound(state, 'Anna', odd);
    expect(state.shortTerm).toEqual(['a']);
    expect(state.items.a!.forget).toBe(0);
  });

  it('F3: a pinned memory is never forgotten and its F is frozen', () => {
    let state = stateWith([item('a', 'the cat sat on the mat', { pinned: true, forget: 0.4 })]);
    for (let round = 0; round < 100; round += 1) {
      state = forgettingRound(state, 'quantum chromodynamics', settings);
    }
    expect(state.shortTerm).toEqual(['a']);
    expect(state.items.a!.forget).toBe(0.4);
  });
});
