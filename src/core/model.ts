/**
 * The records Loci keeps. Every tier of the memory hierarchy is one of these; the storage
 * adapter persists them as they are (plain data + `Float32Array`), so they are also the
 * backup format's payload.
 */
import type { Chars, EpochMs, Tokens } from './units';

export type AgentId = string;
export type MessageId = string;
export type PassageId = string;
export type DocumentId = string;
export type TurnId = string;
export type ConversationId = string;

/**
 * One conversation of an agent (schema v2, ADR 0151). Messages and summaries belong to one
 * conversation; core blocks, archival passages and documents belong to the agent, so every
 * conversation of the agent shares them.
 */
export interface Conversation {
  id: ConversationId;
  agentId: AgentId;
  title: string;
  createdAt: EpochMs;
  /** The time of its newest message (or its creation): the list shows the most recent first. */
  updatedAt: EpochMs;
}

/**
 * The conversation that holds an agent's messages from before conversations existed (the v2
 * upgrade moves every v1 message there) and any message written without a conversation.
 */
export function defaultConversationId(agentId: AgentId): ConversationId {
  return `${agentId}:conversation-1`;
}

/** The title of the conversation that holds an agent's messages from before conversations. */
export const FIRST_CONVERSATION_TITLE = 'First conversation';

/** The conversation a message or summary belongs to (rows of the v1 shape have none). */
export function conversationOf(row: {
  agentId: AgentId;
  conversationId?: ConversationId;
}): ConversationId {
  return row.conversationId ?? defaultConversationId(row.agentId);
}

export type AgentKind = 'companion' | 'notebook' | 'writer' | 'fiction';
export type StrategyName = 'memgpt' | 'forgetting' | 'recency' | 'window';

/** Budgets and thresholds of the context window, all settable per agent. */
export interface ContextBudgets {
  /** Tokens kept free for the reply. */
  replyReserve: Tokens;
  /** Upper bound of the automatic-recall "relevant memories" section. */
  recallBudget: Tokens;
  /** Fraction of the window at which a memory-pressure alert is inserted. */
  warningFraction: number;
  /** Fraction of the window at which the queue is flushed (evicted). */
  flushFraction: number;
  /** Fraction of the window the queue is evicted down to. */
  targetFraction: number;
  /** Bound of the recursive summary. */
  summaryMaxTokens: Tokens;
  /** Model steps per turn before `max_steps`. */
  maxSteps: number;
  /** Consecutive invalid steps before `invalid_tool_call`. */
  maxInvalidSteps: number;
}

/** Settings of the forgetting-curve strategy (seed 001). */
export interface ForgettingSettings {
  /** R₀: a long-term memory with R ≥ R₀ returns to short-term. */
  recallThreshold: number;
  /** F₀ (> R₀): a short-term memory with F ≥ F₀ is forgotten. */
  forgetThreshold: number;
  /** R̂: the relevance an item needs to hold its place (ΔF = tanh(R̂ − R)). */
  relevanceTarget: number;
  /** A: longest gram, in units (Han characters or words). */
  maxGram: number;
}

/**
 * How the model samples each step (ADR 0156). Missing on an agent means the defaults
 * (`DEFAULT_SAMPLING`); the same values go with every step of a turn (E53).
 */
export interface SamplingSettings {
  /** 0 is greedy; higher is more varied (0–2). */
  temperature: number;
  /** Nucleus sampling: the share of probability mass kept (0.05–1). */
  topP: number;
}

export interface Agent {
  id: AgentId;
  kind: AgentKind;
  name: string;
  persona: string;
  /** web-llm model id, or null until the user picks one. */
  modelId: string | null;
  strategy: StrategyName;
  autoRecall: boolean;
  budgets: ContextBudgets;
  forgetting: ForgettingSettings;
  /** Sampling settings; missing means the defaults (ADR 0156). */
  sampling?: SamplingSettings;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

export interface CoreBlock {
  agentId: AgentId;
  label: string;
  description: string;
  value: string;
  charLimit: Chars;
  readOnly: boolean;
  updatedAt: EpochMs;
  /** Version number of `value`; the history has one row per version. */
  version: number;
}

/** Where a block version came from: a tool call in a step, or the user in the UI. */
/**
 * A document passage the model read in a turn (automatic recall or a search result): text
 * someone else wrote, so a core-memory edit after it is marked for review (C15, ADR 0135).
 */
export interface UntrustedRead {
  passageId: PassageId;
  documentId: DocumentId;
  /** The document's title when it was read. */
  title: string;
  /** 0-based, as in {@link PassageSource}; people read `chunk + 1`. */
  chunk: number;
}

export type BlockSource =
  | {
      type: 'tool';
      turnId: TurnId;
      step: number;
      tool: string;
      /** The document passages the turn had read before this edit, newest first (C15). */
      after?: UntrustedRead[];
    }
  | { type: 'user' }
  | { type: 'revert'; toVersion: number }
  | { type: 'system' };

export interface BlockVersion {
  agentId: AgentId;
  label: string;
  version: number;
  value: string;
  source: BlockSource;
  at: EpochMs;
}

export type MessageRole = 'user' | 'assistant' | 'tool' | 'system' | 'event';

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface Message {
  id: MessageId;
  agentId: AgentId;
  /**
   * The conversation it belongs to (schema v2). Absent on rows of the v1 shape and on drafts
   * that do not name one: those belong to {@link defaultConversationId}.
   */
  conversationId?: ConversationId;
  /** Monotonic per agent (across all its conversations), from 1. */
  seq: number;
  role: MessageRole;
  text: string;
  /**
   * Who wrote it, by the name the user knows: the user's display name (setting
   * `profile.displayName`) on their messages, the agent's name on its replies; absent when no
   * name is set (ADR 0090). Search indexes it and a query naming it ranks its messages higher.
   */
  author?: string;
  /** The kind of an `event` message (`session_start`, `memory_pressure`, …). */
  speaker?: string;
  toolCall?: ToolCall;
  toolResult?: string;
  /**
   * A model step exactly as the model generated it (its JSON, `thinking` included): the prompt
   * shows it verbatim so the next request starts with the previous one plus its output, which
   * engines keep in their KV cache (ADR 0100). Absent on older steps and invalid outputs.
   */
  raw?: string;
  /** The turn this message belongs to. */
  turnId?: TurnId;
  /**
   * A reply cut off at its step's length limit (A40): kept as the reply, and the chat offers
   * Continue on it.
   */
  cut?: true;
  /** A reply that goes on from a cut reply (A41): the chat shows the two as one. */
  continues?: MessageId;
  /** How the reply was written, for the line under it (A42): absent on other messages. */
  stats?: ReplyStats;
  /**
   * On a message a turn answered: the versions of its reply that the user does not keep (U331,
   * ADR 0213), each the rows Regenerate or a version switch took out of the chat, whole. Only the
   * kept version's rows are messages (in the queue, recall, search); these are none of that.
   */
  otherVersions?: ReplyVersion[];
  at: EpochMs;
  /** Whether the message is in the FIFO queue of the context window. */
  inContext: boolean;
  tokens: Tokens;
}

/**
 * One version of a reply that is not kept (U331): the messages after its trigger — tool calls and
 * results, the reply, Continues and their replies — and the turns those rows triggered (a
 * Continue's) with their steps, as {@link Message.otherVersions} holds them.
 */
export interface ReplyVersion {
  /** Its rows hold no versions of their own: only a turn's trigger does, and it is not here. */
  messages: Array<Omit<Message, 'otherVersions'>>;
  turns: TurnRecord[];
  steps: StepRecord[];
}

export interface Summary {
  id: string;
  agentId: AgentId;
  /** The conversation whose queue it folds (schema v2); absent: {@link defaultConversationId}. */
  conversationId?: ConversationId;
  version: number;
  text: string;
  /** Inclusive range of message seqs folded into this summary (cumulative). */
  fromSeq: number;
  toSeq: number;
  /** `model` when the LLM wrote it, `extractive` when the fallback did. */
  method: 'model' | 'extractive';
  at: EpochMs;
  tokens: Tokens;
}

export type PassageSource =
  | { type: 'memory'; turnId?: TurnId }
  | {
      type: 'document';
      documentId: DocumentId;
      chunk: number;
      page?: number;
      start: Chars;
      end: Chars;
      heading?: string;
    }
  | { type: 'import'; note?: string };

export interface Passage {
  id: PassageId;
  agentId: AgentId;
  text: string;
  source: PassageSource;
  tags: string[];
  at: EpochMs;
  /** The embedding, or null while it waits to be embedded. */
  embedding: Float32Array | null;
  embeddingModel: string | null;
  dimension: number;
}

export type DocumentStatus =
  'reading' | 'chunked' | 'embedding' | 'indexed' | 'failed' | 'cancelled';

export interface DocumentMeta {
  id: DocumentId;
  agentId: AgentId;
  title: string;
  mimeType: string;
  bytes: number;
  contentHash: string;
  status: DocumentStatus;
  passages: number;
  embedded: number;
  error?: string;
  at: EpochMs;
}

export type StopReason =
  'end_turn' | 'max_steps' | 'invalid_tool_call' | 'context_overflow' | 'cancelled' | 'error';

export type TurnStatus = 'running' | 'done' | 'interrupted';

/** One user turn: its trigger, its steps, and how it ended. */
/**
 * How a reply was written, as its footer shows it (A42): which model, how long from the turn's
 * start (Send) to its first visible word, and how fast it was generated.
 */
export interface ReplyStats {
  /** The engine's model id when the reply was written. */
  model?: string;
  /** Milliseconds from the turn's start to the reply's first visible text; absent unstreamed. */
  firstWordMs?: number;
  /** Tokens the engine generated for the reply's step, when it says. */
  tokens?: Tokens;
  /** Milliseconds from the step's first generated piece to its end (decoding, not reading). */
  decodeMs?: number;
  /**
   * Prompt tokens the engine read for the reply's step — its prompt less what it reused from its
   * cache — when the engine says both (llama.cpp engines); how fast this device reads (A43).
   */
  readTokens?: Tokens;
  /** Milliseconds from the step's request to its first generated piece: reading the prompt. */
  readMs?: number;
}

export interface TurnRecord {
  id: TurnId;
  agentId: AgentId;
  /** The message that started the turn (user message or event). */
  triggerMessageId: MessageId;
  status: TurnStatus;
  steps: number;
  stopReason?: StopReason;
  error?: string;
  startedAt: EpochMs;
  endedAt?: EpochMs;
}

/** One model step: what the model emitted and what the tool returned. */
export interface StepRecord {
  turnId: TurnId;
  agentId: AgentId;
  step: number;
  raw: string;
  thinking?: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  result: string;
  ok: boolean;
  heartbeat: boolean;
  at: EpochMs;
}

export interface SettingRow {
  key: string;
  value: unknown;
}
