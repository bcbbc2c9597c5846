/**
 * The persisted state of the forgetting strategy (seed 001's containers), as plain JSON: the
 * items and which container each is in. The persona container is the agent's `persona` and is
 * not stored here. Every item id is in exactly one of `shortTerm`, `longTerm`, `forget`;
 * `forget` is a transit container and is empty between rounds.
 */
import { AppError } from '../../errors';
import type { EpochMs } from '../../units';

/** One line of a remembered exchange. */
export interface ForgettingLine {
  role: 'user' | 'assistant' | 'event';
  text: string;
}

/** A memory: one completed round (the user's message and the replies to it). */
export interface ForgettingItem {
  /** The id of the round's first message. */
  id: string;
  lines: ForgettingLine[];
  /** Inclusive seq range of the round's messages. */
  fromSeq: number;
  toSeq: number;
  at: EpochMs;
  /** The latest relevance R to the dialogue (0.5 = shares nothing). */
  relevance: number;
  /** The forget value F: Σ tanh(R̂ − R) since the item last entered short-term. */
  forget: number;
  /** A pinned item stays in short-term and its F is frozen. */
  pinned: boolean;
}

/** Which items moved in the last round, for the UI. */
export interface ForgettingMoves {
  added: string[];
  forgotten: string[];
  recalled: string[];
}

export interface ForgettingState {
  version: 1;
  /** The highest message seq already absorbed into items. */
  lastSeq: number;
  /** Rounds processed so far. */
  rounds: number;
  /**
   * The id of the round the last update ran for: `planContext` may call the strategy once per
   * model step, and F must move once per round, not once per step (F4).
   */
  roundId: string | null;
  items: Record<string, ForgettingItem>;
  shortTerm: string[];
  longTerm: string[];
  forget: string[];
  lastMoves: ForgettingMoves;
}

/** A state with no memories. */
export function emptyForgettingState(): ForgettingState {
  return {
    version: 1,
    lastSeq: 0,
    rounds: 0,
    roundId: null,
    items: {},
    shortTerm: [],
    longTerm: [],
    forget: [],
    lastMoves: { added: [], forgotten: [], recalled: [] },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isIdList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((id) => typeof id === 'string');

/**
 * Reads a persisted state: `undefined`/`null` → an empty state; anything else must be a
 * well-formed state whose containers partition its items, or this throws `invalid_argument`
 * (a corrupt state is a fault, not something to drop silently).
 */
export function parseForgettingState(value: unknown): ForgettingState {
  if (value === undefined || value === null) return emptyForgettingState();
  if (
    !isRecord(value) ||
    value.version !== 1 ||
    typeof value.lastSeq !== 'number' ||
    typeof value.rounds !== 'number' ||
    !isRecord(value.items) ||
    !isIdList(value.shortTerm) ||
    !isIdList(value.longTerm) ||
    !isIdList(value.forget)
  ) {
    throw new AppError('invalid_argument', 'The forgetting-curve state is malformed.', { value });
  }
  const state = value as unknown as ForgettingState;
  const placed = [...state.shortTerm, ...state.longTerm, ...state.forget];
  const ids = Object.keys(state.items);
  if (
    new Set(placed).size !== placed.length ||
    placed.length !== ids.length ||
    !placed.every((id) => Object.hasOwn(state.items, id))
  ) {
    throw new AppError(
      'invalid_argument',
      'The forgetting-curve containers do not partition the items.',
      {
        items: ids.length,
        placed: placed.length,
      },
    );
  }
  return {
    ...state,
    roundId: typeof value.roundId === 'string' ? value.roundId : null,
    lastMoves: isRecord(value.lastMoves)
      ? state.lastMoves
      : { added: [], forgotten: [], recalled: [] },
  };
}

/** The text of an item as the relevance model reads it (no role labels). */
export function itemBody(item: ForgettingItem): string {
  return item.lines.map((line) => line.text).join('\n');
}

/** The text of an item as the prompt shows it. */
export function itemPromptText(item: ForgettingItem): string {
  return item.lines.map((line) => `${line.role}: ${line.text}`).join('\n');
}

/**
 * Most memory items the state keeps (X169, ADR 0163). Each round scores every item, so an
 * uncapped state made every step slower for ever; the conversation itself stays in the store,
 * where recall search still finds what the cap let go.
 */
export const MAX_FORGETTING_ITEMS = 2_000;

/**
 * `state` with at most `cap` items: the long-term items of lowest relevance (then oldest) go
 * first, never a pinned one and never one in short-term (those are the ones in use). Returns
 * `state` itself when nothing goes.
 */
export function capForgettingItems(
  state: ForgettingState,
  cap: number = MAX_FORGETTING_ITEMS,
): ForgettingState {
  const excess = state.shortTerm.length + state.longTerm.length + state.forget.length - cap;
  if (excess <= 0) return state;
  const droppable = state.longTerm
    .map((id) => state.items[id])
    .filter((item): item is ForgettingItem => item !== undefined && !item.pinned)
    .sort((a, b) => a.relevance - b.relevance || a.fromSeq - b.fromSeq)
    .slice(0, excess);
  if (droppable.length === 0) return state;
  const gone = new Set(droppable.map((item) => item.id));
  const items: Record<string, ForgettingItem> = {};
  for (const [id, item] of Object.entries(state.items)) if (!gone.has(id)) items[id] = item;
  return { ...state, items, longTerm: state.longTerm.filter((id) => !gone.has(id)) };
}
