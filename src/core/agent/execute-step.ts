/**
 * One model step (A5–A7): the constrained call, streaming of the `send_message` text, parse +
 * validate, the tool run, and ONE transaction with the tool's effect, the step's messages, the
 * StepRecord and the updated TurnRecord (closed when this step ends the turn).
 */
import type {
  Agent,
  ConversationId,
  MessageId,
  ReplyStats,
  StepRecord,
  StopReason,
  TurnRecord,
  UntrustedRead,
} from '../model';
import type { CompletionResult } from '../ports/llm-engine';
import type { NewMessage } from '../ports/memory-store';
import type { EpochMs } from '../units';
import type { Tokenizer } from '../ports/tokenizer';
import type { ToolRegistry } from '../tools/tool-registry';
import type { MemoryChange, ToolOutcome } from '../tools/tool';
import type { AgentDeps } from './agent-deps';
import { agentDisplayName } from './display-names';
import { cutReply } from './cut-reply';
import { createMessageStream } from './message-stream';
import { parseStep } from './parse-step';
import type { Prepared } from './prepare-context';
import { readsInPrompt } from './prompt-reads';
import { samplingOf } from './sampling';
import { stepMaxTokens } from './step-max-tokens';
import { buildStepSchema, replyMaxChars } from './step-schema';
import { newMessage } from './store-message';
import type { TurnEvent } from './turn-events';

/** Longest raw output of an invalid step kept in the queue (the model sees its mistake). */
const RAW_ECHO_CHARS = 300;

export interface StepInput {
  deps: AgentDeps;
  agent: Agent;
  /** The turn's conversation: the step's messages go to its queue (A22). */
  conversationId: ConversationId;
  turn: TurnRecord;
  step: number;
  tokenizer: Tokenizer;
  registry: ToolRegistry;
  prepared: Prepared;
  /** Invalid steps in a row before this one. */
  invalidRun: number;
  /** The cut reply this step's reply goes on from (A41), when the turn is a Continue. */
  continues?: MessageId;
  /**
   * The document passages the turn has read so far, newest first; this step adds every one its
   * prompt holds (from this turn or an earlier one, X230) and those its tool result shows (C15).
   */
  untrusted?: UntrustedRead[];
  signal?: AbortSignal;
  emit: (event: TurnEvent) => void;
}

export interface StepResult {
  turn: TurnRecord;
  invalidRun: number;
  reply?: string;
  stopReason?: StopReason;
}

/** The reply's footer figures (A42), whole milliseconds; what was not measured is left out. */
function replyStats(m: {
  model: string | null;
  turnStart: EpochMs;
  requestAt: EpochMs;
  firstPieceAt: EpochMs | null;
  firstWordAt: EpochMs | null;
  doneAt: EpochMs;
  completion: CompletionResult;
}): ReplyStats {
  const ms = (from: EpochMs, to: EpochMs) => Math.max(0, Math.round(to - from));
  const { promptTokens, cachedTokens, completionTokens } = m.completion;
  // Tokens read are known only where the engine says what it reused (A43).
  const read =
    promptTokens !== undefined && cachedTokens !== undefined
      ? Math.max(0, promptTokens - cachedTokens)
      : undefined;
  return {
    ...(m.model ? { model: m.model } : {}),
    ...(m.firstWordAt !== null ? { firstWordMs: ms(m.turnStart, m.firstWordAt) } : {}),
    ...(completionTokens !== undefined ? { tokens: completionTokens } : {}),
    ...(m.firstPieceAt !== null ? { decodeMs: ms(m.firstPieceAt, m.doneAt) } : {}),
    ...(read !== undefined && m.firstPieceAt !== null
      ? { readTokens: read, readMs: ms(m.requestAt, m.firstPieceAt) }
      : {}),
  };
}

/** Puts `reads` first in the turn's list (newest first), once per passage. */
function noteReads(list: UntrustedRead[], reads: readonly UntrustedRead[]): void {
  for (const read of [...reads].reverse()) {
    const at = list.findIndex((r) => r.passageId === read.passageId);
    if (at >= 0) list.splice(at, 1);
    list.unshift(read);
  }
}

/** Runs one step and commits it in one transaction (A7); returns the stop reason when it ends the turn. */
export async function executeStep(input: StepInput): Promise<StepResult> {
  const { deps, agent, turn, step, tokenizer } = input;
  const { plan, specs, blocks } = input.prepared;
  // Constant work per piece whatever the reply's length (E80): no re-reading of the prefix.
  const message = createMessageStream();
  // The same settings on every step, so web-llm keeps its KV cache (E27, E53).
  const { temperature, topP } = samplingOf(agent);
  // A reply may use the free window, not only the reserve (A40).
  const maxTokens = stepMaxTokens(plan, agent.budgets.replyReserve);
  let streamed: string | null = null;
  // For the reply's footer (A42): when the step's first piece and first visible text arrived.
  let firstPieceAt: EpochMs | null = null;
  let firstWordAt: EpochMs | null = null;
  const requestAt = deps.clock.now();
  const completion = await deps.engine.complete({
    messages: plan.prompt,
    maxTokens,
    temperature,
    topP,
    jsonSchema: buildStepSchema(specs, maxTokens),
    signal: input.signal,
    onDelta: (delta) => {
      firstPieceAt ??= deps.clock.now();
      const { text, grew } = message.push(delta);
      streamed = text;
      if (text !== null && grew) {
        if (text.trim() !== '') firstWordAt ??= deps.clock.now();
        input.emit({ type: 'message.streamed', turnId: turn.id, step, text, done: false });
      }
    },
    // The engine starts the step over (ADR 0116): the next deltas are a new text.
    onRestart: () => {
      message.reset();
      streamed = null;
      firstPieceAt = null;
      firstWordAt = null;
    },
  });
  const doneAt = deps.clock.now();
  const raw = completion.text;
  const kept = cutReply(completion.finishReason, streamed, input.registry, specs);
  const parsed = kept ?? parseStep(raw, input.registry, specs);
  // Cut: stopped by max_tokens, or closed by the grammar at the reply's length bound (E51).
  const cut =
    kept !== null ||
    (parsed.type === 'call' &&
      parsed.name === 'send_message' &&
      String(parsed.arguments.message ?? '').length >= replyMaxChars(maxTokens));
  const untrusted = input.untrusted ?? [];
  // Every document passage the prompt holds — recalled now, kept in an earlier message, or in a
  // search result still in the queue — marks an edit of this step (C15, X230).
  const recalled = plan.memories.flatMap((m) => (m.untrusted ? [m.untrusted] : []));
  noteReads(untrusted, await readsInPrompt(plan.prompt, deps.store, [...recalled, ...untrusted]));
  let outcome: ToolOutcome;
  if (parsed.type === 'call') {
    outcome = await parsed.tool.run(parsed.arguments, {
      agent,
      conversationId: input.conversationId,
      blocks,
      store: deps.store,
      search: deps.search,
      clock: deps.clock,
      ids: deps.ids,
      turnId: turn.id,
      step,
      untrusted,
    });
    if (outcome.type === 'ok' && outcome.read) noteReads(untrusted, outcome.read);
  } else if (completion.finishReason === 'length') {
    outcome = {
      type: 'invalid',
      feedback: `Your step was cut off after ${maxTokens} tokens; keep "thinking" to one sentence and the message shorter.`,
    };
  } else {
    outcome = { type: 'invalid', feedback: parsed.feedback };
  }

  const ok = outcome.type === 'ok';
  const name = parsed.name ?? null;
  const args = parsed.type === 'call' ? parsed.arguments : null;
  const heartbeat = ok ? parsed.heartbeat : true;
  const result = outcome.type === 'ok' ? outcome.result : outcome.feedback;
  let reply = outcome.type === 'ok' ? outcome.reply : undefined;
  if (reply !== undefined && parsed.type === 'call' && (cut || input.continues)) {
    // A cut reply and its continuation join where the model stopped: the space at the seam stays.
    let seam = String(parsed.arguments.message ?? reply);
    if (!input.continues) seam = seam.trimStart();
    if (!cut) seam = seam.trimEnd();
    reply = seam;
  }
  const invalidRun = ok ? 0 : input.invalidRun + 1;
  let stopReason: StopReason | undefined;
  if (ok && !parsed.heartbeat) stopReason = 'end_turn';
  else if (!ok && invalidRun >= agent.budgets.maxInvalidSteps) stopReason = 'invalid_tool_call';
  else if (step >= agent.budgets.maxSteps) stopReason = 'max_steps';

  const at = deps.clock.now();
  const base = { agentId: agent.id, conversationId: input.conversationId, turnId: turn.id, at };
  const author = reply !== undefined ? agentDisplayName(agent) : undefined;
  // The step as a queue message: a reply carries its text and the agent's name; any other call
  // has no visible text, and an invalid output is echoed for the model only. Search indexes
  // replies alone (R19, R21); the raw output stays in the step record.
  const messages: NewMessage[] = [
    newMessage(
      name && args
        ? {
            ...base,
            id: deps.ids.next('msg'),
            role: 'assistant',
            text: reply ?? '',
            ...(author !== undefined ? { author } : {}),
            toolCall: { name, arguments: args },
            // Shown to the model as generated, so its next request extends this one (ADR 0100);
            // a cut step's output is not JSON, so the prompt shows its compact call instead.
            ...(cut ? { cut: true as const } : {}),
            ...(kept ? {} : { raw }),
            ...(reply !== undefined && input.continues ? { continues: input.continues } : {}),
            ...(reply !== undefined
              ? {
                  stats: replyStats({
                    model: deps.engine.modelId,
                    turnStart: turn.startedAt,
                    requestAt,
                    firstPieceAt,
                    firstWordAt,
                    doneAt,
                    completion,
                  }),
                }
              : {}),
          }
        : {
            ...base,
            id: deps.ids.next('msg'),
            role: 'assistant',
            text: raw.slice(0, RAW_ECHO_CHARS),
          },
      tokenizer,
    ),
  ];
  // A reply that ends the turn needs no receipt; anything else is read back next step.
  if (!(reply !== undefined && stopReason === 'end_turn')) {
    messages.push(
      newMessage(
        {
          ...base,
          id: deps.ids.next('msg'),
          role: 'tool',
          text: result,
          toolResult: result,
          toolCall: {
            name: name ?? 'step',
            arguments: name === 'archival_memory_insert' && args ? args : {},
          },
        },
        tokenizer,
      ),
    );
  }
  const record: StepRecord = {
    turnId: turn.id,
    agentId: agent.id,
    step,
    raw,
    ...(parsed.thinking !== undefined ? { thinking: parsed.thinking } : {}),
    ...(name ? { tool: name } : {}),
    ...(args ? { arguments: args } : {}),
    result,
    ok,
    heartbeat,
    at,
  };
  const updated: TurnRecord = stopReason
    ? { ...turn, steps: step, status: 'done', stopReason, endedAt: at }
    : { ...turn, steps: step };
  const changes = outcome.type === 'ok' ? (outcome.changes ?? {}) : {};
  const applied = await deps.store.apply({
    ...changes,
    messages: [
      // A tool's own messages join the turn's conversation unless they name one.
      ...(changes.messages ?? []).map((m) => ({
        ...m,
        conversationId: m.conversationId ?? input.conversationId,
      })),
      ...messages,
    ],
    steps: [record],
    turns: [updated],
  });
  await deps.search.indexMessages(applied.messages);
  if (changes.passages?.length) await deps.search.indexPassages(changes.passages);

  input.emit({
    type: 'tool.called',
    turnId: turn.id,
    step,
    tool: name,
    arguments: args,
    ok,
    result,
    heartbeat,
  });
  const memory: MemoryChange[] = outcome.type === 'ok' ? (outcome.memory ?? []) : [];
  if (memory.length > 0)
    input.emit({ type: 'memory.changed', turnId: turn.id, step, changes: memory });
  if (reply !== undefined)
    input.emit({ type: 'message.streamed', turnId: turn.id, step, text: reply, done: true });
  return {
    turn: updated,
    invalidRun,
    ...(reply !== undefined ? { reply } : {}),
    ...(stopReason ? { stopReason } : {}),
  };
}
