/**
 * The queue manager (seed paper §2.2): decides memory pressure from a plan (C6–C8) and flushes
 * the FIFO queue — evicts the oldest messages down to the target and folds them into a new
 * recursive summary written by the model, or by the extractive fallback when the model call
 * fails (C10–C12). Eviction only clears `inContext`: every message stays in recall (C11).
 */
import { AppError } from '../errors';
import type { Agent, ContextBudgets, ConversationId, Message, MessageId, Summary } from '../model';
import type { Clock, IdSource } from '../ports/clock';
import type { LlmEngine } from '../ports/llm-engine';
import type { MemoryStore } from '../ports/memory-store';
import type { Tokenizer } from '../ports/tokenizer';
import { speakerText } from '../text/inline-text';
import { renderMessage } from '../prompts/render-context';
import { summaryPrompt } from '../prompts/summary-prompt';
import { extractiveSummary } from '../summary/extractive-summary';
import type { Tokens } from '../units';
import type { ContextPlan } from './plan-context';

export type Pressure = 'ok' | 'warning' | 'flush';

/** The speaker of the queue manager's alert messages (role `event`). */
export const MEMORY_PRESSURE = 'memory_pressure';

/** Whether a queued message is the queue manager's memory-pressure alert (C7). */
export function isMemoryPressureAlert(message: Message): boolean {
  return message.role === 'event' && message.speaker === MEMORY_PRESSURE;
}

/**
 * `flush` when the whole queue no longer fits beside the reply reserve (C8: prompt tokens
 * needed > flushFraction × window − replyReserve, or some queued message was left out);
 * `warning` at warningFraction × window (C6); `ok` otherwise.
 */
export function assessPressure(plan: ContextPlan, budgets: ContextBudgets): Pressure {
  const needed = plan.demand - budgets.replyReserve;
  if (
    plan.overflowIds.length > 0 ||
    needed > budgets.flushFraction * plan.window - budgets.replyReserve
  ) {
    return 'flush';
  }
  return needed >= budgets.warningFraction * plan.window ? 'warning' : 'ok';
}

export interface FlushInput {
  agent: Agent;
  /** The conversation whose queue is flushed; its summary chain (absent: the first one). */
  conversationId?: ConversationId;
  store: MemoryStore;
  engine: LlmEngine;
  tokenizer: Tokenizer;
  clock: Clock;
  ids: IdSource;
  window: Tokens;
  /** The in-context queue, oldest first. */
  queue: readonly Message[];
  /** The prefix to evict (`plan.evictableIds`). */
  evictIds: readonly MessageId[];
  previous?: Summary;
  /**
   * The system message of the agent's steps (the plan's first turn), for an engine that keeps a
   * common prefix: the summary request then opens with it, so the engine keeps it (C26).
   */
  agentSystem?: string;
  signal?: AbortSignal;
}

export interface FlushResult {
  summary: Summary;
  evictedIds: MessageId[];
  /** Why the extractive fallback was used, when it was. */
  fallback?: string;
}

function transcriptLine(message: Message): string {
  const turn = renderMessage(message);
  // A name is the user's text: it must not make the line look like a role header (X232).
  const author = message.author === undefined ? undefined : speakerText(message.author);
  const who =
    message.role === 'user'
      ? (author ?? 'User')
      : turn.role === 'assistant'
        ? (author ?? 'Assistant')
        : 'Note';
  const text =
    message.role === 'assistant' && message.toolCall?.name === 'send_message'
      ? message.text
      : turn.content;
  return `${who}: ${text.replace(/\s+/g, ' ').slice(0, 400)}`;
}

/** Clips a model summary to the bound, at a sentence end when there is one. */
function clipToTokens(text: string, tokenizer: Tokenizer, maxTokens: Tokens): string {
  let out = text.trim();
  while (out !== '' && tokenizer.count(out) > maxTokens) {
    const cut = out.slice(0, Math.floor(out.length * 0.9));
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('。'));
    out = (end > cut.length / 2 ? cut.slice(0, end + 1) : cut).trim();
  }
  return out;
}

async function modelSummary(input: FlushInput, evicted: readonly Message[]): Promise<string> {
  const { tokenizer, agent } = input;
  const maxTokens = agent.budgets.summaryMaxTokens;
  const maxWords = Math.max(20, Math.floor(maxTokens * 0.7));
  const previous = input.previous?.text ?? '';
  const skeleton = summaryPrompt(previous, '', maxWords, input.agentSystem);
  const fixed = skeleton.reduce((sum, t) => sum + tokenizer.countMessage(t.role, t.content), 0);
  // The summarizer sees as much of the evicted text as fits beside its own output (C10).
  let room = input.window - maxTokens - fixed - tokenizer.countMessage('assistant', '');
  const lines: string[] = [];
  for (const message of evicted) {
    const line = transcriptLine(message);
    const cost = tokenizer.count(`${line}\n`);
    if (cost > room) break;
    lines.push(line);
    room -= cost;
  }
  const result = await input.engine.complete({
    messages: summaryPrompt(previous, lines.join('\n'), maxWords, input.agentSystem),
    maxTokens,
    temperature: 0,
    signal: input.signal,
  });
  const text = clipToTokens(result.text, tokenizer, maxTokens);
  if (text === '') throw new AppError('schema_violation', 'The model returned an empty summary.');
  // A model that answered with a step (its system message asks for JSON) wrote no summary (C12).
  if (text.startsWith('{')) {
    throw new AppError('schema_violation', 'The model answered the summary request with JSON.');
  }
  return text;
}

/** Evicts `evictIds` and writes the new recursive summary, in one transaction (C10, C11). */
export async function flushQueue(input: FlushInput): Promise<FlushResult> {
  const evictSet = new Set(input.evictIds);
  const evicted = input.queue.filter((m) => evictSet.has(m.id));
  const last = evicted[evicted.length - 1];
  const first = evicted[0];
  if (!first || !last) throw new AppError('invalid_argument', 'Nothing to evict.');
  let text: string;
  let fromSeq = input.previous?.fromSeq ?? first.seq;
  let method: Summary['method'] = 'model';
  let fallback: string | undefined;
  try {
    text = await modelSummary(input, evicted);
  } catch (error) {
    // Lane 3 becomes a value here on purpose: the turn proceeds with the extractive summary (C12).
    fallback = AppError.from(error).code;
    method = 'extractive';
    // It keeps what it replaces and names the range it holds (ADR 0211).
    const extract = extractiveSummary({
      ...(input.previous ? { previous: input.previous } : {}),
      messages: evicted,
      tokenizer: input.tokenizer,
      maxTokens: input.agent.budgets.summaryMaxTokens,
    });
    text = extract.text;
    fromSeq = extract.fromSeq;
  }
  const summary: Summary = {
    id: input.ids.next('summary'),
    agentId: input.agent.id,
    ...(input.conversationId !== undefined ? { conversationId: input.conversationId } : {}),
    version: (input.previous?.version ?? 0) + 1,
    text,
    fromSeq,
    toSeq: last.seq,
    method,
    at: input.clock.now(),
    tokens: input.tokenizer.count(text),
  };
  const evictedIds = evicted.map((m) => m.id);
  // The flush answers the alert: a memory-pressure alert still queued after the evicted prefix
  // leaves the queue with it (C7, ADR 0203), so the model never reads a stale warning.
  const answered = input.queue.filter((m) => isMemoryPressureAlert(m) && !evictSet.has(m.id));
  await input.store.apply({
    summaries: [summary],
    inContext: { ids: [...evictedIds, ...answered.map((m) => m.id)], inContext: false },
  });
  return fallback === undefined ? { summary, evictedIds } : { summary, evictedIds, fallback };
}
