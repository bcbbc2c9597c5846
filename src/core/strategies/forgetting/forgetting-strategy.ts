/**
 * The `forgetting` strategy (seed 001). Each completed round of the conversation becomes a
 * memory item that enters short-term with a fresh F; once per round the four-step update runs
 * against the current dialogue P (the message the reply answers). The prompt then gets, within
 * the budget and in this order of priority: the current round verbatim, the persona (only with
 * `includePersona`; `planContext` renders the persona core block itself), the last
 * `verbatimRounds` completed rounds verbatim, and short-term items as `short_term` memories —
 * pinned first, then highest R first, so when short-term does not fit the lowest-R items are
 * the ones left out (F7). The state returned is plain JSON ({@link ForgettingState}).
 */
import type {
  ContextMemory,
  ContextStrategy,
  StrategyInput,
  StrategyOutput,
} from '../../context/strategy';
import type { Message } from '../../model';
import type { Tokens } from '../../units';
import type { Round } from '../rounds';
import { splitRounds } from '../rounds';
import { memoryHeaderCost, memoryLineCost, messageCounter } from '../prompt-cost';
import type { ForgettingItem, ForgettingLine, ForgettingState } from './forgetting-state';
import { capForgettingItems, itemPromptText, parseForgettingState } from './forgetting-state';
import { FRESH_FORGET_VALUE, forgettingRound } from './forgetting-round';

/** Options of {@link createForgettingStrategy}. */
export interface ForgettingStrategyOptions {
  /** Completed rounds kept verbatim besides the current one (default 1). */
  verbatimRounds?: number;
  /**
   * Whether the persona container (the agent's `persona`) is emitted as a `persona` memory.
   * Off by default: inside `planContext` the persona core block is always in the core section,
   * which is the seed's persona container; turn it on only where nothing else renders it.
   */
  includePersona?: boolean;
}

const LINE_ROLES = new Set<Message['role']>(['user', 'assistant', 'event']);

function toItem(round: Round): ForgettingItem | null {
  const lines: ForgettingLine[] = [];
  for (const m of round.messages) {
    if (LINE_ROLES.has(m.role) && m.text.trim() !== '') {
      lines.push({ role: m.role as ForgettingLine['role'], text: m.text });
    }
  }
  const first = round.messages[0];
  const last = round.messages[round.messages.length - 1];
  if (lines.length === 0 || first === undefined || last === undefined) return null;
  return {
    id: first.id,
    lines,
    fromSeq: first.seq,
    toSeq: last.seq,
    at: first.at,
    relevance: 0.5,
    forget: FRESH_FORGET_VALUE,
    pinned: false,
  };
}

/** Adds every completed round newer than `state.lastSeq` to short-term. */
function absorb(state: ForgettingState, completed: readonly Round[]): ForgettingState {
  const items = { ...state.items };
  const shortTerm = [...state.shortTerm];
  const added: string[] = [];
  let lastSeq = state.lastSeq;
  for (const round of completed) {
    const first = round.messages[0];
    const last = round.messages[round.messages.length - 1];
    if (first === undefined || last === undefined || first.seq <= state.lastSeq) continue;
    lastSeq = Math.max(lastSeq, last.seq);
    const item = toItem(round);
    if (item === null || items[item.id] !== undefined) continue;
    items[item.id] = item;
    shortTerm.push(item.id);
    added.push(item.id);
  }
  return { ...state, items, shortTerm, lastSeq, lastMoves: { ...state.lastMoves, added } };
}

/** Creates the `forgetting` strategy. */
export function createForgettingStrategy(options: ForgettingStrategyOptions = {}): ContextStrategy {
  const verbatimRounds = Math.max(0, options.verbatimRounds ?? 1);
  const includePersona = options.includePersona ?? false;
  return {
    name: 'forgetting',
    select(input: StrategyInput): StrategyOutput {
      const rounds = splitRounds(input.history);
      const current = rounds[rounds.length - 1];
      const completed = rounds.slice(0, -1);
      let state = parseForgettingState(input.state);
      const roundId = current?.messages[0]?.id ?? null;
      // Within a round the state does not change: the input object is returned as it came, so
      // the caller can tell "unchanged" by identity and skip rewriting it (X169).
      let outState: unknown = input.state;
      if (roundId !== state.roundId) {
        state = absorb(state, completed);
        state = { ...forgettingRound(state, input.query, input.agent.forgetting), roundId };
        state = capForgettingItems(state);
        outState = state;
      }

      const { budget } = input;
      const countMessage = messageCounter(input);
      let used: Tokens = 0;
      const fits = (cost: Tokens): boolean => {
        if (used + cost > budget) return false;
        used += cost;
        return true;
      };

      // The current round, newest message first, as a contiguous tail.
      const currentPicked: Message[] = [];
      for (const m of [...(current?.messages ?? [])].reverse()) {
        if (!fits(countMessage(m))) break;
        currentPicked.unshift(m);
      }

      // Memories are lines of one section; its header is paid with the first memory in.
      const header = memoryHeaderCost(input);
      let headerPaid = false;
      const fitsMemory = (tokens: Tokens): boolean => {
        if (!fits(tokens + (headerPaid ? 0 : header))) return false;
        headerPaid = true;
        return true;
      };

      const memories: ContextMemory[] = [];
      const persona = input.agent.persona.trim();
      if (includePersona && persona !== '') {
        const tokens = memoryLineCost(input, persona);
        if (fitsMemory(tokens)) {
          memories.push({ id: 'persona', text: persona, tokens, origin: 'persona' });
        }
      }

      const verbatim: Message[] = [];
      const verbatimIds = new Set<string>();
      const recent = completed.slice(Math.max(0, completed.length - verbatimRounds)).reverse();
      outer: for (const round of recent) {
        for (const m of [...round.messages].reverse()) {
          if (!fits(countMessage(m))) break outer;
          verbatim.unshift(m);
          // Any part of a round shown verbatim keeps the round out of the memories.
          const id = round.messages[0]?.id;
          if (id !== undefined) verbatimIds.add(id);
        }
      }

      const candidates = state.shortTerm
        .map((id) => state.items[id])
        .filter((item): item is ForgettingItem => item !== undefined && !verbatimIds.has(item.id))
        .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.relevance - a.relevance);
      const shortTerm: ContextMemory[] = [];
      const order = new Map<string, number>();
      for (const item of candidates) {
        const text = itemPromptText(item);
        const tokens = memoryLineCost(input, text);
        if (!fitsMemory(tokens)) break;
        order.set(item.id, item.fromSeq);
        shortTerm.push({ id: item.id, text, tokens, origin: 'short_term', score: item.relevance });
      }
      shortTerm.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));

      return {
        messages: [...verbatim, ...currentPicked],
        memories: [...memories, ...shortTerm],
        tokens: used,
        state: outState ?? state,
      };
    },
  };
}
