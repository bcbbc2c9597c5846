/**
 * The live replay of the memory evaluation (V28–V31, ADR 0092): a conversation is fed to the
 * same code the chat runs. The first speaker's turns are user triggers of {@link runTurn}; the
 * other speaker's turns are what the model answers — a scripted engine returns the JSON step a
 * model would write (`send_message` with that turn's text). The queue manager, eviction, the
 * summary call (answered with nothing, so the app's extractive fallback writes the summary),
 * automatic recall, storage and indexing are the app's, unchanged. Each question is then asked
 * as a user trigger on a throwaway fork of the replayed state, and the prompt of its first step
 * — the plan the loop built — is what context recall reads.
 */
import { createAgentRecord } from '../core/agent/create-agent-record';
import { DISPLAY_NAME_SETTING } from '../core/agent/display-names';
import { runTurn } from '../core/agent/run-turn';
import { DAY_MS } from '../core/agent/start-turn';
import type { TurnTrigger } from '../core/agent/turn-events';
import { planContext } from '../core/context/plan-context';
import type { Agent, Message, StrategyName } from '../core/model';
import type { Clock, IdSource } from '../core/ports/clock';
import type { CompletionRequest, LlmEngine } from '../core/ports/llm-engine';
import type { MemorySearch } from '../core/ports/memory-search';
import type { MemoryStore } from '../core/ports/memory-store';
import type { Tokenizer } from '../core/ports/tokenizer';
import { memoryPressureText, sessionStartText } from '../core/prompts/event-copy';
import { createWindowStrategy } from '../core/strategies/window';
import { createToolRegistry } from '../core/tools/tool-registry';
import type { EpochMs, Tokens } from '../core/units';
import type { EvalConversation, EvalTurn } from './eval-dataset';
import type { ChatTemplateTokens } from './turn-cost/chat-template-tokens';
import { MeteredEngine } from './turn-cost/metered-engine';
import { TurnCostMeter } from './turn-cost/turn-cost-meter';

/** The app's state for one agent: its store and the search over it. */
export interface LiveWorld {
  store: MemoryStore;
  search: MemorySearch;
}

/** What the live replay needs from its host (the CLI wires the app's adapters). */
export interface LiveReplayDeps {
  /** A fresh, empty store with its search. */
  createWorld(): Promise<LiveWorld>;
  /** A copy of `world` that can be changed without changing `world` (store and search state). */
  forkWorld(world: LiveWorld): Promise<LiveWorld>;
  /**
   * The engine of one replay: a context window of `window` tokens, every request answered by
   * `answer` (the scripted engine of the e2e build and the tests).
   */
  createEngine(window: Tokens, answer: (request: CompletionRequest) => string): LlmEngine;
  tokenizer: Tokenizer;
  /** The chat template's tokens, for the turn-cost meter; without them nothing is metered. */
  chatTokens?: ChatTemplateTokens;
  ids: IdSource;
}

/** A clock the replay sets to each dataset turn's time. */
export class ReplayClock implements Clock {
  constructor(private current: EpochMs) {}
  now(): EpochMs {
    return this.current;
  }
  set(at: EpochMs): void {
    this.current = at;
  }
}

/** One turn of the loop: a trigger (a first-speaker turn, or a session start) and the replies. */
export interface ReplayRound {
  /** The first speaker's turn, or null when the other speaker opens a session. */
  user: EvalTurn | null;
  /** The other speaker's turns that answer it, in order (none: the user spoke again). */
  replies: EvalTurn[];
}

/**
 * The conversation as turns of the loop: each first-speaker turn starts a round; the other
 * speaker's turns that follow it in the same session are its replies; a session the other
 * speaker opens starts with a session-start event, as when the agent greets a returning user.
 */
export function replayRounds(conversation: EvalConversation): ReplayRound[] {
  const [first] = conversation.speakers;
  const rounds: ReplayRound[] = [];
  let session: number | null = null;
  for (const turn of conversation.turns) {
    const current = rounds[rounds.length - 1];
    if (turn.speaker === first) rounds.push({ user: turn, replies: [] });
    else if (current && session === turn.session) current.replies.push(turn);
    else rounds.push({ user: null, replies: [turn] });
    session = turn.session;
  }
  return rounds;
}

/** The thinking of a scripted step: short, as a small model writes before a plain reply. */
export const SCRIPTED_THINKING = 'Reply in my own words.';

/** The step a model would write to say `text`. */
export function replyStep(text: string, heartbeat: boolean): string {
  return JSON.stringify({
    thinking: SCRIPTED_THINKING,
    function: 'send_message',
    arguments: { message: text },
    request_heartbeat: heartbeat,
  });
}

/** The replayed state of one strategy at one budget. */
export interface LiveReplay {
  strategy: StrategyName;
  budget: Tokens;
  window: Tokens;
  agent: Agent;
  world: LiveWorld;
  /** Dataset turn id → its stored message. */
  messageOfTurn: Map<string, Message>;
  /** Stored message id → dataset turn id. */
  turnOfMessage: Map<string, string>;
  /** Every request of the replay, priced (questions are not metered); null without chat tokens. */
  meter: TurnCostMeter | null;
  /** Summaries written (queue flushes) during the replay. */
  flushes: number;
  /** Turns that ended other than as the dataset did, by stop reason (e.g. `error`). */
  problems: Record<string, number>;
  /** Turns replayed, and those whose first planned prompt carried a memory-pressure alert (V38). */
  turns: number;
  warnedTurns: number;
}

/** The words every memory-pressure alert opens with, as the prompt carries them. */
const PRESSURE_ALERT = memoryPressureText(0).slice(0, memoryPressureText(0).indexOf(':') + 1);

/** Whether a planned prompt carries a memory-pressure alert (V38). */
export function carriesPressureAlert(prompt: readonly { content: string }[]): boolean {
  return prompt.some((turn) => turn.content.includes(PRESSURE_ALERT));
}

/** Fixed tokens of a prompt (system, tools, core blocks, reply reserve) for `agent`. */
async function fixedTokens(agent: Agent, world: LiveWorld, tokenizer: Tokenizer): Promise<Tokens> {
  const blocks = await world.store.listBlocks(agent.id);
  const dry = await planContext({
    agent,
    blocks,
    history: [],
    tools: createToolRegistry().specs(blocks),
    strategy: createWindowStrategy(),
    tokenizer,
    window: 1_000_000,
    query: '',
    now: agent.createdAt,
  });
  if (!dry.ok) return 0;
  const s = dry.value.sections;
  return s.system + s.tools + s.core + s.reserve;
}

/**
 * A new agent in `world` whose window leaves exactly `budget` tokens for conversation (summary,
 * memories, messages) beside the fixed sections and the reply reserve (ADR 0070), with the
 * dataset's two speakers as the names a user knows: the profile's display name and the agent's.
 */
async function createReplayAgent(
  conversation: EvalConversation,
  strategy: StrategyName,
  budget: Tokens,
  world: LiveWorld,
  tokenizer: Tokenizer,
): Promise<{ agent: Agent; window: Tokens }> {
  const [user, other] = conversation.speakers;
  const now = (conversation.turns[0]?.at ?? 0) as EpochMs;
  const record = (window: Tokens) =>
    createAgentRecord({ id: `eval-${conversation.id}`, name: other, now, window });
  let window = budget * 2;
  let created = record(window);
  await world.store.apply(created.changes);
  // The reserve depends on the window and the window on the reserve: a few rounds settle it.
  for (let i = 0; i < 3; i += 1) {
    created = record(window);
    window = (await fixedTokens({ ...created.agent, strategy }, world, tokenizer)) + budget;
  }
  const agent: Agent = { ...record(window).agent, strategy };
  await world.store.apply({ agents: [agent] });
  await world.store.setSetting(DISPLAY_NAME_SETTING, user);
  await world.search.loadAgent(agent.id);
  return { agent, window };
}

/** Replays `conversation` through the live loop with `strategy` at `budget` (V28). */
export async function replayLive(
  conversation: EvalConversation,
  strategy: StrategyName,
  budget: Tokens,
  deps: LiveReplayDeps,
  onProgress?: (done: number, total: number) => void,
): Promise<LiveReplay> {
  const world = await deps.createWorld();
  const { agent, window } = await createReplayAgent(
    conversation,
    strategy,
    budget,
    world,
    deps.tokenizer,
  );
  const clock = new ReplayClock(agent.createdAt);
  const meter = deps.chatTokens ? new TurnCostMeter(deps.chatTokens) : null;
  let pending: EvalTurn[] = [];
  const answer = (request: CompletionRequest): string => {
    // The summary request: no text, so the queue manager falls back to the extractive summary.
    if (!request.jsonSchema) return '';
    const next = pending.shift();
    if (!next) throw new Error('The replay script has no reply for this step.');
    clock.set(next.at);
    return replyStep(next.text, pending.length > 0);
  };
  const scripted = deps.createEngine(window, answer);
  const engine = meter ? new MeteredEngine(scripted, meter) : scripted;
  const agentDeps = {
    store: world.store,
    search: world.search,
    engine,
    clock,
    ids: deps.ids,
    tokenizer: deps.tokenizer,
  };
  const replay: LiveReplay = {
    strategy,
    budget,
    window,
    agent,
    world,
    messageOfTurn: new Map(),
    turnOfMessage: new Map(),
    meter,
    flushes: 0,
    problems: {},
    turns: 0,
    warnedTurns: 0,
  };
  const link = (turn: EvalTurn, message: Message) => {
    replay.messageOfTurn.set(turn.id, message);
    replay.turnOfMessage.set(message.id, turn.id);
  };
  const rounds = replayRounds(conversation);
  let lastAt: EpochMs | null = null;
  let done = 0;
  for (const round of rounds) {
    const at = (round.user ?? round.replies[0])!.at;
    clock.set(at);
    const days = lastAt === null ? 1 : Math.max(1, Math.floor((at - lastAt) / DAY_MS));
    const trigger: TurnTrigger = round.user
      ? { type: 'user_message', text: round.user.text }
      : { type: 'event', kind: 'session_start', text: sessionStartText(days) };
    pending = [...round.replies];
    const fromSeq = (await world.store.lastSeq(agent.id)) + 1;
    const controller = new AbortController();
    meter?.beginTurn(round.user?.id ?? `${round.replies[0]!.id} (session start)`);
    replay.turns += 1;
    let planned = false;
    const outcome = await runTurn(agentDeps, agent.id, trigger, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'summary.created') replay.flushes += 1;
        if (event.type === 'context.planned' && !planned) {
          planned = true;
          if (carriesPressureAlert(event.plan.prompt)) replay.warnedTurns += 1;
        }
        // The user speaks again before any reply: they interrupt the model, as in the app.
        if (event.type === 'context.planned' && round.replies.length === 0) controller.abort();
      },
    });
    const expected = round.replies.length === 0 ? 'cancelled' : 'end_turn';
    if (outcome.stopReason !== expected) {
      replay.problems[outcome.stopReason] = (replay.problems[outcome.stopReason] ?? 0) + 1;
    }
    const written = await world.store.queryMessages(agent.id, { fromSeq });
    const userMessage = round.user ? written.find((m) => m.role === 'user') : undefined;
    if (round.user && userMessage) link(round.user, userMessage);
    const sent = written.filter(
      (m) => m.role === 'assistant' && m.toolCall?.name === 'send_message',
    );
    round.replies.forEach((turn, i) => {
      const message = sent[i];
      if (message) link(turn, message);
    });
    lastAt = round.replies[round.replies.length - 1]?.at ?? at;
    done += (round.user ? 1 : 0) + round.replies.length;
    onProgress?.(done, conversation.turns.length);
  }
  return replay;
}

/** The prompt of a question's first step on a throwaway fork, or why none was planned. */
export interface QuestionPlan {
  prompt: string;
  /** Recalled memory in that prompt: its tokens and lines (V38). */
  memoryTokens?: Tokens;
  memoryLines?: number;
  problem?: string;
}

/**
 * Asks `question` as the user's next message, a minute after the conversation ended, on a fork
 * of the replayed state (V29): the question's turn — its trigger, any flush and recall — runs in
 * the live loop, and the prompt of its first step is returned. The fork is dropped afterwards,
 * so no question changes the state the next one meets.
 */
export async function askOnFork(
  replay: LiveReplay,
  question: string,
  deps: LiveReplayDeps,
  now: EpochMs,
): Promise<QuestionPlan> {
  const world = await deps.forkWorld(replay.world);
  const clock = new ReplayClock(now);
  const engine = deps.createEngine(replay.window, () => replyStep('…', false));
  const controller = new AbortController();
  let prompt: string | null = null;
  let memory = { tokens: 0, lines: 0 };
  const outcome = await runTurn(
    {
      store: world.store,
      search: world.search,
      engine,
      clock,
      ids: deps.ids,
      tokenizer: deps.tokenizer,
    },
    replay.agent.id,
    { type: 'user_message', text: question },
    {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== 'context.planned' || prompt !== null) return;
        prompt = event.plan.prompt.map((turn) => turn.content).join('\n');
        memory = {
          tokens: event.plan.sections.memories,
          lines: event.plan.memoryLines ?? event.plan.memories.length,
        };
        controller.abort();
      },
    },
  );
  if (prompt === null) return { prompt: '', problem: outcome.error?.code ?? outcome.stopReason };
  return { prompt, memoryTokens: memory.tokens, memoryLines: memory.lines };
}
