/**
 * Plans the main context of the next model call (seed paper §2.1): system instructions, tool
 * specs, core memory, the recursive summary, the queued messages, the relevant-memories turn
 * (quoted data in a user turn of its own, ADR 0134, placed right before the message the reply
 * answers, ADR 0100) and the reply reserve — each with its exact token count — within the
 * window, always (C1).
 * It touches only what it is given (the in-context queue, never recall storage), so it costs
 * the same with 10² or 10⁵ messages in recall (C9).
 */
import type { Agent, CoreBlock, Message, MessageId, StrategyName, Summary } from '../model';
import {
  renderCoreSection,
  renderMemoriesSection,
  renderMessage,
  renderSummarySection,
  renderToolsSection,
  renderWithMemories,
} from '../prompts/render-context';
import { systemInstructions } from '../prompts/system-instructions';
import type { ChatTurn } from '../ports/llm-engine';
import type { Tokenizer } from '../ports/tokenizer';
import { err, ok, type Result } from '../result';
import type { ToolSpec } from '../tools/tool';
import type { EpochMs, Tokens } from '../units';
import { evictablePrefix } from './evictable-prefix';
import { keptMemoriesOf, type KeptMemoriesState } from './kept-memories';
import { pieceCounter } from './piece-counter';
import { pinnedMessage } from './pinned-message';
import type { ContextMemory, ContextStrategy } from './strategy';

export type SectionName =
  'system' | 'tools' | 'core' | 'summary' | 'memories' | 'messages' | 'reserve';

export const SECTION_NAMES: readonly SectionName[] = [
  'system',
  'tools',
  'core',
  'summary',
  'memories',
  'messages',
  'reserve',
];

/** Exact token counts of a message already counted with this tokenizer, by message id. */
export type TokenCache = Map<MessageId, Tokens>;

export interface PlanInput {
  agent: Agent;
  blocks: readonly CoreBlock[];
  summary?: Summary;
  /** What the strategy may draw from, oldest first (for `memgpt`: the in-context queue). */
  history: readonly Message[];
  /** Automatic-recall candidates, best first (rendered lines). */
  candidates?: readonly ContextMemory[];
  tools: readonly ToolSpec[];
  strategy: ContextStrategy;
  strategyState?: unknown;
  tokenizer: Tokenizer;
  window: Tokens;
  /** The text the next reply answers. */
  query: string;
  now: EpochMs;
  /** Reused across the steps of a turn so each message is tokenized once. */
  tokenCache?: TokenCache;
}

export interface PlannedMessage {
  id: MessageId;
  seq: number;
  role: Message['role'];
  tokens: Tokens;
}

export interface PromptReuse {
  /** Tokens the engine prefills for this request: the new message and the reply header, or all. */
  fresh: Tokens;
  /** Tokens it keeps from the previous step (its request and the reply it generated). */
  kept: Tokens;
}

/** The plan of one model call: what goes in, what it costs, what a flush would evict. */
export interface ContextPlan {
  strategy: StrategyName;
  window: Tokens;
  /** Sum of `sections`; never above `window` (C1, C2). */
  total: Tokens;
  sections: Record<SectionName, Tokens>;
  /** Included messages, oldest first, with their tokens. */
  messages: PlannedMessage[];
  messageIds: MessageId[];
  /** History messages that did not fit (oldest first): a flush is due when non-empty (C8). */
  overflowIds: MessageId[];
  /** What a flush would evict now: an oldest-first prefix, never the newest user message (C3). */
  evictableIds: MessageId[];
  memories: ContextMemory[];
  /** Recalled memory lines anywhere in the prompt: this turn's and those kept merged (C17). */
  memoryLines?: number;
  /** Tokens the prompt would need to hold the whole history (for the queue manager). */
  demand: Tokens;
  prompt: ChatTurn[];
  /** Exact tokens of each turn of `prompt`, in order (C18); with the reply header and the
   * reserve they add up to `total`. */
  turnTokens?: Tokens[];
  strategyState?: unknown;
  /**
   * What the engine keeps of this request from the step before (C18): filled by whoever saw that
   * step (the chat session), with {@link promptReuse}.
   */
  reuse?: PromptReuse;
  /** Set when kept memories no longer fitted and were dropped this step (C17). */
  memoryFlush?: true;
  /** Present when the counts come from an estimator, not the model's tokenizer (E73). */
  countsEstimated?: true;
}

export type PlanProblem =
  | {
      type: 'fixed_sections_exceed_window';
      /** System + tools + core + summary + reserve. */
      fixed: Tokens;
      window: Tokens;
    }
  | { type: 'newest_message_exceeds_budget'; messageId: MessageId; tokens: Tokens; budget: Tokens };

function joinSystem(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join('\n\n');
}

/** The room held back for recalled lines in the queue manager's demand (C6, ADR 0203). */
export function reservedRecall(agent: Agent, strategy: StrategyName): Tokens {
  return strategy === 'memgpt' && agent.autoRecall ? agent.budgets.recallBudget : 0;
}

/** Plans the context; a problem value (never a throw) when it cannot fit (C4). */
export async function planContext(input: PlanInput): Promise<Result<ContextPlan, PlanProblem>> {
  const { window, agent } = input;
  // Every count goes through the memoized piecewise counter (C9, ADR 0033).
  const tokenizer = pieceCounter(input.tokenizer);
  const cache = input.tokenCache ?? new Map<MessageId, Tokens>();
  const turns = new Map<MessageId, ChatTurn>();
  const turnOf = (message: Message): ChatTurn => {
    let turn = turns.get(message.id);
    if (!turn) {
      turn = renderMessage(message);
      turns.set(message.id, turn);
    }
    return turn;
  };
  const countMessage = (message: Message): Tokens => {
    let tokens = cache.get(message.id);
    if (tokens === undefined) {
      const turn = turnOf(message);
      tokens = tokenizer.countMessage(turn.role, turn.content);
      cache.set(message.id, tokens);
    }
    return tokens;
  };

  const instructions = systemInstructions(agent.name);
  const toolsText = renderToolsSection(input.tools);
  const coreText = renderCoreSection(input.blocks);
  const summaryText = renderSummarySection(input.summary);
  const fixedParts = [instructions, toolsText, coreText, summaryText];
  // The generation header (`<|start_header_id|>assistant…`) is part of every prompt.
  const generation = tokenizer.countGeneration();
  const reserve = agent.budgets.replyReserve;
  const fixedSystem = tokenizer.countMessage('system', joinSystem(fixedParts)) + generation;
  const fixed = fixedSystem + reserve;
  if (fixed > window) return err({ type: 'fixed_sections_exceed_window', fixed, window });

  const budget = window - fixed;
  const selected = await input.strategy.select({
    agent,
    history: input.history,
    query: input.query,
    budget,
    tokenizer,
    state: input.strategyState,
    now: input.now,
    candidates: input.candidates ?? [],
    countMessage,
  });
  const memories = [...selected.memories];
  const messages = [...selected.messages];
  const pinned = pinnedMessage(input.history);

  // Recount exactly what will be sent; trim if the strategy's own counting was optimistic.
  // The memories are a user turn of their own (quoted data, ADR 0134) before the pinned message (ADR 0100).
  const systemTurn = fixedSystem - generation;
  const measure = () => {
    const memoriesText = renderMemoriesSection(memories);
    const memoriesTurn = memoriesText === '' ? 0 : tokenizer.countMessage('user', memoriesText);
    const messageTokens = messages.reduce((sum, m) => sum + countMessage(m), 0);
    return {
      memoriesText,
      memoriesTurn,
      messageTokens,
      total: systemTurn + memoriesTurn + generation + messageTokens + reserve,
    };
  };
  let measured = measure();
  while (measured.total > window) {
    if (memories.length > 0) memories.pop();
    else {
      const drop = messages.findIndex((m) => m !== pinned);
      if (drop < 0) break;
      messages.splice(drop, 1);
    }
    measured = measure();
  }
  const pinnedLost = pinned !== undefined && !messages.includes(pinned);
  if (pinned && (measured.total > window || (input.strategy.name === 'memgpt' && pinnedLost))) {
    return err({
      type: 'newest_message_exceeds_budget',
      messageId: pinned.id,
      tokens: countMessage(pinned),
      budget,
    });
  }

  // memgpt keeps each turn's memories merged into the message they were recalled for until that
  // message leaves the queue (C17, ADR 0102): a turn adds one message, so the previous request
  // stays a prefix. Only lines not already visible are added; when the kept lines no longer fit
  // beside the queue, they go (a memory flush) and this turn gets the plain selection.
  const keep =
    input.strategy.name === 'memgpt' && pinned !== undefined && messages.includes(pinned);
  const attached = new Map<MessageId, ContextMemory[]>();
  let memoryFlush = false;
  if (keep && pinned && turnOf(pinned).role === 'user') {
    const prior = keptMemoriesOf(input.strategyState);
    for (const m of messages) {
      const lines = prior[m.id];
      if (m !== pinned && lines && lines.length > 0) attached.set(m.id, lines);
    }
    // Every recalled line in the prompt, kept or new, fits the recall budget (ADR 0203): a
    // turn's new lines are added only where not already visible; when they would pass the
    // budget or the window, the kept lines this turn does not need go, newest message first
    // (C25), so the request stays the same up to the first message that changed.
    const older = messages.filter((m) => m !== pinned && attached.has(m.id)).reverse();
    const needed = new Set(memories.map((m) => m.text));
    const trimUnneeded = (from: readonly Message[]): boolean => {
      const next = from.find((m) => attached.get(m.id)?.some((line) => !needed.has(line.text)));
      if (!next) return false;
      const kept = (attached.get(next.id) ?? []).filter((line) => needed.has(line.text));
      if (kept.length > 0) attached.set(next.id, kept);
      else attached.delete(next.id);
      return true;
    };
    // One rendering of the kept lines answers both limits.
    const fits = () => {
      const memory = attachedMemoryTokens(attached);
      return promptBase() + memory <= window && memory <= agent.budgets.recallBudget;
    };
    const own = prior[pinned.id];
    if (own !== undefined) attached.set(pinned.id, own);
    else {
      for (;;) {
        attached.delete(pinned.id);
        const visible = new Set([...attached.values()].flat().map((m) => m.text));
        attached.set(
          pinned.id,
          memories.filter((m) => !visible.has(m.text)),
        );
        if (fits() || !trimUnneeded(older)) break;
      }
    }
    if (attachedTotal(attached) > window) {
      memoryFlush = attached.size > 1 || own !== undefined;
      attached.clear();
      attached.set(pinned.id, memories);
    }
  }
  function attachedTurn(m: Message): ChatTurn {
    const lines = attached.get(m.id);
    return lines && lines.length > 0 ? renderWithMemories(turnOf(m), lines) : turnOf(m);
  }
  /** The prompt's tokens without any kept line: system, messages, generation header, reserve. */
  function promptBase(): Tokens {
    return (
      systemTurn + generation + reserve + messages.reduce((sum, m) => sum + countMessage(m), 0)
    );
  }
  /** Tokens the kept lines add to the messages they are merged into, headers included. */
  function attachedMemoryTokens(map: Map<MessageId, ContextMemory[]>): Tokens {
    let sum = 0;
    for (const m of messages) {
      const lines = map.get(m.id);
      if (!lines || lines.length === 0) continue;
      const turn = renderWithMemories(turnOf(m), lines);
      sum += tokenizer.countMessage(turn.role, turn.content) - countMessage(m);
    }
    return sum;
  }
  /** The whole prompt with `map`'s kept lines merged in: the plain messages plus those lines. */
  function attachedTotal(map: Map<MessageId, ContextMemory[]>): Tokens {
    return promptBase() + attachedMemoryTokens(map);
  }
  const keptMemoryTokens = keep && attached.size > 0 ? attachedMemoryTokens(attached) : 0;
  const merged = keep && attached.size > 0;
  const turnMemories = merged && pinned ? (attached.get(pinned.id) ?? []) : memories;

  const sections: Record<SectionName, Tokens> = {
    tools: tokenizer.count(toolsText),
    core: tokenizer.count(coreText),
    summary: summaryText === '' ? 0 : tokenizer.count(summaryText),
    // The whole memories turn, its template tokens included; or, merged (C17), every kept line
    // and its header inside the messages they were recalled for.
    memories: merged ? keptMemoryTokens : measured.memoriesTurn,
    messages: measured.messageTokens,
    reserve,
    system: 0,
  };
  // The system turn's template overhead and any BPE boundary effects are attributed to
  // `system`, so the sections add up to the exact total (C2).
  sections.system = systemTurn + generation - sections.tools - sections.core - sections.summary;

  const included = new Set(messages.map((m) => m.id));
  const overflowIds = input.history.filter((m) => !included.has(m.id)).map((m) => m.id);
  const historyTokens = input.history.reduce((sum, m) => sum + countMessage(m), 0);
  const used = measured.total - reserve;
  const target = Math.floor(agent.budgets.targetFraction * window);
  // Ordered by how often each part changes (ADR 0100): the system message (instructions, tools,
  // core blocks, summary — changed only by a core edit or a flush), the queue oldest first with
  // the model's steps as generated, and the memories turn right before the message the reply
  // answers, so everything older than this turn is a prefix the engine already holds.
  const history = messages.map(merged ? attachedTurn : turnOf);
  const at = pinned ? messages.indexOf(pinned) : -1;
  const memoriesAt = at < 0 ? 0 : at;
  const prompt: ChatTurn[] = merged
    ? [{ role: 'system', content: joinSystem(fixedParts) }, ...history]
    : [
        { role: 'system', content: joinSystem(fixedParts) },
        ...history.slice(0, memoriesAt),
        ...(measured.memoriesText === ''
          ? []
          : [{ role: 'user' as const, content: measured.memoriesText }]),
        ...history.slice(memoriesAt),
      ];
  const total = merged ? attachedTotal(attached) : measured.total;
  const turnTokens: Tokens[] = [
    systemTurn,
    ...(merged
      ? messages.map((m, i) => {
          const turn = history[i];
          return turn && attached.get(m.id)?.length
            ? tokenizer.countMessage(turn.role, turn.content)
            : countMessage(m);
        })
      : [
          ...messages.slice(0, memoriesAt).map(countMessage),
          ...(measured.memoriesText === '' ? [] : [measured.memoriesTurn]),
          ...messages.slice(memoriesAt).map(countMessage),
        ]),
  ];
  if (merged) sections.messages = total - reserve - systemTurn - generation - keptMemoryTokens;
  const nextState: unknown = merged
    ? ({ kept: Object.fromEntries(attached) } satisfies KeptMemoriesState)
    : selected.state;
  return ok({
    strategy: input.strategy.name,
    window,
    total,
    sections,
    messages: messages.map((m) => ({
      id: m.id,
      seq: m.seq,
      role: m.role,
      tokens: countMessage(m),
    })),
    messageIds: messages.map((m) => m.id),
    overflowIds,
    evictableIds: evictablePrefix(
      input.history,
      countMessage,
      used + (historyTokens - measured.messageTokens) - target,
    ),
    memories: turnMemories,
    memoryLines: merged
      ? [...attached.values()].reduce((sum, lines) => sum + lines.length, 0)
      : memories.length,
    ...(memoryFlush ? { memoryFlush: true as const } : {}),
    // Recalled lines are chosen again every turn: memory pressure never counts them (C6, ADR
    // 0203). Under memgpt with automatic recall their room is held back like the reply reserve,
    // so the queue flushes before it would crowd recall out, whatever this turn found.
    demand: fixedSystem + historyTokens + reserve + reservedRecall(agent, input.strategy.name),
    prompt,
    turnTokens,
    strategyState: nextState,
    ...(input.tokenizer.exact ? {} : { countsEstimated: true as const }),
  });
}
