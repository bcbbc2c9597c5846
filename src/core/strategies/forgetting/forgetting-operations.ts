/**
 * What the user can do to the forgetting containers from the UI, as pure operations on the
 * state: pin, unpin, forget now, promote. Each returns a new state, or an error value when the
 * item is unknown or not in a container the operation applies to (the UI shows the sentence).
 */
import type { Result } from '../../result';
import { err, ok } from '../../result';
import type { ForgettingItem, ForgettingState } from './forgetting-state';
import { FRESH_FORGET_VALUE } from './forgetting-round';

/** Why an operation was refused. */
export interface ForgettingOperationError {
  type: 'unknown_item' | 'wrong_container';
  message: string;
}

type Outcome = Result<ForgettingState, ForgettingOperationError>;

const unknown = (id: string): Outcome =>
  err({ type: 'unknown_item', message: `There is no memory with id "${id}".` });

function update(
  state: ForgettingState,
  id: string,
  patch: Partial<ForgettingItem>,
): ForgettingState {
  const item = state.items[id];
  if (item === undefined) return state;
  return { ...state, items: { ...state.items, [id]: { ...item, ...patch } } };
}

/**
 * Pins an item: it moves to short-term if it was in long-term (with a fresh F), and it is
 * never forgotten while pinned (F1).
 */
export function pinMemory(state: ForgettingState, id: string): Outcome {
  if (state.items[id] === undefined) return unknown(id);
  if (state.shortTerm.includes(id)) return ok(update(state, id, { pinned: true }));
  const moved = promoteMemory(state, id);
  return moved.ok ? ok(update(moved.value, id, { pinned: true })) : moved;
}

/** Unpins an item; it stays in short-term with a fresh F, so it is not forgotten at once. */
export function unpinMemory(state: ForgettingState, id: string): Outcome {
  if (state.items[id] === undefined) return unknown(id);
  return ok(update(state, id, { pinned: false, forget: FRESH_FORGET_VALUE }));
}

/** Moves a short-term item to long-term now (unpinning it). */
export function forgetMemoryNow(state: ForgettingState, id: string): Outcome {
  if (state.items[id] === undefined) return unknown(id);
  if (!state.shortTerm.includes(id)) {
    return err({ type: 'wrong_container', message: `Memory "${id}" is not in short-term memory.` });
  }
  const next = update(state, id, { pinned: false });
  return ok({
    ...next,
    shortTerm: next.shortTerm.filter((x) => x !== id),
    longTerm: [...next.longTerm, id],
  });
}

/** Moves a long-term item to short-term with a fresh F. */
export function promoteMemory(state: ForgettingState, id: string): Outcome {
  if (state.items[id] === undefined) return unknown(id);
  if (!state.longTerm.includes(id)) {
    return err({ type: 'wrong_container', message: `Memory "${id}" is not in long-term memory.` });
  }
  const next = update(state, id, { forget: FRESH_FORGET_VALUE });
  return ok({
    ...next,
    longTerm: next.longTerm.filter((x) => x !== id),
    shortTerm: [...next.shortTerm, id],
  });
}
