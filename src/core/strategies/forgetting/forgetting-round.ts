/**
 * The four-step round of seed 001, as a pure function of the state:
 * (1) update F of every short-term item by ΔF = tanh(R̂ − R); F ≥ F₀ → forget container;
 * (2) score every long-term item; R ≥ R₀ → short-term with a fresh F (0);
 * (3) forget container → long-term, emptied.
 * R is computed once per round against the dialogue, over S = every memory (all containers),
 * so an item forgotten in step 1 cannot be recalled in step 2 of the same round (F3).
 */
import type { ForgettingSettings } from '../../model';
import type { ForgettingItem, ForgettingState } from './forgetting-state';
import { itemBody } from './forgetting-state';
import { relevanceScores } from './relevance';

/** The F an item gets when it enters short-term (new, recalled or promoted). */
export const FRESH_FORGET_VALUE = 0;

/** Runs one round against `dialogue` (the current dialogue P); returns a new state. */
export function forgettingRound(
  state: ForgettingState,
  dialogue: string,
  settings: ForgettingSettings,
): ForgettingState {
  const ids = [...state.shortTerm, ...state.longTerm, ...state.forget];
  const scores = relevanceScores(
    dialogue,
    ids.map((id) => {
      const item = state.items[id];
      return item === undefined ? '' : itemBody(item);
    }),
    settings.maxGram,
  );
  // Every item is copied once here and only that fresh copy is updated below.
  const items: Record<string, ForgettingItem> = {};
  ids.forEach((id, i) => {
    const item = state.items[id];
    if (item !== undefined)
      items[id] = { ...item, relevance: scores[i]?.relevance ?? item.relevance };
  });

  // (1) short-term: accumulate F; forget at F ≥ F₀ unless pinned.
  const shortTerm: string[] = [];
  const forget = [...state.forget];
  for (const id of state.shortTerm) {
    const item = items[id];
    if (item === undefined) continue;
    if (item.pinned) {
      shortTerm.push(id);
      continue;
    }
    const f = item.forget + Math.tanh(settings.relevanceTarget - item.relevance);
    item.forget = f;
    if (f >= settings.forgetThreshold) forget.push(id);
    else shortTerm.push(id);
  }

  // (2) long-term: recall at R ≥ R₀ with a fresh F.
  const longTerm: string[] = [];
  const recalled: string[] = [];
  for (const id of state.longTerm) {
    const item = items[id];
    if (item === undefined) continue;
    if (item.relevance >= settings.recallThreshold) {
      item.forget = FRESH_FORGET_VALUE;
      shortTerm.push(id);
      recalled.push(id);
    } else {
      longTerm.push(id);
    }
  }

  // (3) the forget container empties into long-term.
  const forgotten = forget.filter((id) => items[id] !== undefined);
  return {
    ...state,
    rounds: state.rounds + 1,
    items,
    shortTerm,
    longTerm: [...longTerm, ...forgotten],
    forget: [],
    lastMoves: { added: state.lastMoves.added, forgotten, recalled },
  };
}
