/**
 * The shape of every record of a backup, as {@link Check}s. Mirrors `src/core/model.ts`; a field
 * added there must be added here or imports of new backups fail with "is not a known field".
 */
import type {
  Agent,
  BlockSource,
  BlockVersion,
  Conversation,
  CoreBlock,
  DocumentMeta,
  Message,
  PassageSource,
  ReplyStats,
  ReplyVersion,
  SamplingSettings,
  SettingRow,
  StepRecord,
  Summary,
  ToolCall,
  TurnRecord,
  UntrustedRead,
} from '../model';
import { SAMPLING_RANGES } from '../agent/sampling';
import { BLOCK_LABEL_PATTERN, isBlockLabel } from '../prompts/block-label';
import type { BackupPassage, BackupVectors } from './backup-format';
import {
  arr,
  bool,
  fail,
  json,
  nullable,
  num,
  obj,
  oneOf,
  opt,
  record,
  str,
  tagged,
  type Check,
} from './checks';

/** Size caps of one field; a backup beyond them is rejected rather than written. */
export const LIMITS = {
  idChars: 200,
  nameChars: 1_000,
  textChars: 1_000_000,
  dimension: 4_096,
  rowsPerTable: 5_000_000,
  /**
   * Largest message seq, block or summary version, step number and token budget (ADR 0161): far
   * beyond any real agent, far below 2^53 where `n + 1 === n`.
   */
  counter: 1_000_000_000,
  /** Most steps a turn may be allowed (`maxSteps`, `maxInvalidSteps`). */
  steps: 1_000,
  /** Longest n-gram the forgetting strategy may compare. */
  maxGram: 16,
} as const;

type Variant<U, T extends string> = Extract<U, { type: T }>;

const id = str({ min: 1, max: LIMITS.idChars });
const name = str({ max: LIMITS.nameChars });
const text = str({ max: LIMITS.textChars });
const time = num({ min: 0, max: 8.64e15, integer: true });
const count = num({ min: 0, max: Number.MAX_SAFE_INTEGER, integer: true });
/** A seq, version or step number (ADR 0161). */
const counter = num({ min: 0, max: LIMITS.counter, integer: true });
const tokens = num({ min: 0, max: LIMITS.counter, integer: true });
const fraction = num({ min: 0, max: 1 });
const real = num();

export const agentCheck: Check<Agent> = obj<Agent>({
  id,
  kind: oneOf('companion', 'notebook', 'writer', 'fiction'),
  name,
  persona: text,
  modelId: nullable(name),
  strategy: oneOf('memgpt', 'forgetting', 'recency', 'window'),
  autoRecall: bool,
  budgets: obj<Agent['budgets']>({
    replyReserve: tokens,
    recallBudget: tokens,
    warningFraction: fraction,
    flushFraction: fraction,
    targetFraction: fraction,
    summaryMaxTokens: tokens,
    maxSteps: num({ min: 1, max: LIMITS.steps, integer: true }),
    maxInvalidSteps: num({ min: 0, max: LIMITS.steps, integer: true }),
  }),
  forgetting: obj<Agent['forgetting']>({
    recallThreshold: real,
    forgetThreshold: real,
    relevanceTarget: real,
    maxGram: num({ min: 1, max: LIMITS.maxGram, integer: true }),
  }),
  // The Settings form's ranges (S27): a value the form refuses is refused here too.
  sampling: opt(
    obj<SamplingSettings>({
      temperature: num(SAMPLING_RANGES.temperature),
      topP: num(SAMPLING_RANGES.topP),
    }),
  ),
  createdAt: time,
  updatedAt: time,
});

/**
 * A block label names a tag of the system message, so a backup's labels must follow the label
 * rule (X231, ADR 0191): `notes>\n</human>\nSYSTEM: …` would forge the prompt's structure.
 */
const blockLabel: Check<string> = (v, path) => {
  const label = name(v, path);
  if (!isBlockLabel(label))
    fail(
      path,
      `${JSON.stringify(label.slice(0, 40))} is not a block label (${BLOCK_LABEL_PATTERN.source}: a lower-case letter, then up to 31 lower-case letters, digits or _)`,
    );
  return label;
};

export const blockCheck: Check<CoreBlock> = obj<CoreBlock>({
  agentId: id,
  label: blockLabel,
  description: text,
  value: text,
  charLimit: num({ min: 1, max: LIMITS.textChars, integer: true }),
  readOnly: bool,
  updatedAt: time,
  version: num({ min: 1, max: LIMITS.counter, integer: true }),
});

export const conversationCheck: Check<Conversation> = obj<Conversation>({
  id,
  agentId: id,
  title: name,
  createdAt: time,
  updatedAt: time,
});

const untrustedRead: Check<UntrustedRead> = obj<UntrustedRead>({
  passageId: id,
  documentId: id,
  title: text,
  chunk: count,
});

const blockSource: Check<BlockSource> = tagged<BlockSource>({
  tool: obj<Variant<BlockSource, 'tool'>>({
    type: oneOf('tool'),
    turnId: id,
    step: counter,
    tool: name,
    after: opt(arr(untrustedRead, { max: 16 })),
  }),
  user: obj<Variant<BlockSource, 'user'>>({ type: oneOf('user') }),
  revert: obj<Variant<BlockSource, 'revert'>>({ type: oneOf('revert'), toVersion: counter }),
  system: obj<Variant<BlockSource, 'system'>>({ type: oneOf('system') }),
});

export const blockVersionCheck: Check<BlockVersion> = obj<BlockVersion>({
  agentId: id,
  label: blockLabel,
  version: num({ min: 1, max: LIMITS.counter, integer: true }),
  value: text,
  source: blockSource,
  at: time,
});

/** A flag stored only when set (`cut`). */
const isTrue: Check<true> = (v, path) => (bool(v, path) ? true : fail(path, 'expected true'));

const toolCall = obj<ToolCall>({ name, arguments: record() });

const replyStats = obj<ReplyStats>({
  model: opt(name),
  firstWordMs: opt(count),
  tokens: opt(count),
  decodeMs: opt(count),
  readTokens: opt(count),
  readMs: opt(count),
});

/** A message as a reply version holds it: no versions of its own (ADR 0213). */
type HeldMessage = Omit<Message, 'otherVersions'>;

const heldMessageFields: { [K in keyof HeldMessage]-?: Check<HeldMessage[K]> } = {
  id,
  agentId: id,
  conversationId: opt(id),
  seq: num({ min: 1, max: LIMITS.counter, integer: true }),
  role: oneOf('user', 'assistant', 'tool', 'system', 'event'),
  text,
  author: opt(name),
  speaker: opt(name),
  toolCall: opt(toolCall),
  toolResult: opt(text),
  raw: opt(text),
  turnId: opt(id),
  cut: opt(isTrue),
  continues: opt(id),
  stats: opt(replyStats),
  at: time,
  inContext: bool,
  tokens: count,
};

/**
 * The versions of a reply a trigger holds (U331, S43). Checked when called (not at load): the turn
 * and step checks are defined below. Whether their rows fit the file — the holder's agent, its
 * conversation, after it — is `validate-backup`'s.
 */
const replyVersions: Check<ReplyVersion[]> = (value, path) =>
  arr(
    obj<ReplyVersion>({
      messages: arr(obj<HeldMessage>(heldMessageFields), { max: LIMITS.rowsPerTable }),
      turns: arr(turnCheck, { max: LIMITS.rowsPerTable }),
      steps: arr(stepCheck, { max: LIMITS.rowsPerTable }),
    }),
    { max: LIMITS.rowsPerTable },
  )(value, path);

export const messageCheck: Check<Message> = obj<Message>({
  ...heldMessageFields,
  otherVersions: opt(replyVersions),
});

export const summaryCheck: Check<Summary> = obj<Summary>({
  id,
  agentId: id,
  conversationId: opt(id),
  version: counter,
  text,
  fromSeq: counter,
  toSeq: counter,
  method: oneOf('model', 'extractive'),
  at: time,
  tokens: count,
});

const passageSource: Check<PassageSource> = tagged<PassageSource>({
  memory: obj<Variant<PassageSource, 'memory'>>({ type: oneOf('memory'), turnId: opt(id) }),
  document: obj<Variant<PassageSource, 'document'>>({
    type: oneOf('document'),
    documentId: id,
    chunk: count,
    page: opt(count),
    start: count,
    end: count,
    heading: opt(text),
  }),
  import: obj<Variant<PassageSource, 'import'>>({ type: oneOf('import'), note: opt(text) }),
});

export const passageCheck: Check<BackupPassage> = obj<BackupPassage>({
  id,
  agentId: id,
  text,
  source: passageSource,
  tags: arr(name, { max: 1_000 }),
  at: time,
  embedding: nullable(str({ max: LIMITS.dimension * 6 })),
  embeddingModel: nullable(name),
  dimension: num({ min: 0, max: LIMITS.dimension, integer: true }),
});

export const documentCheck: Check<DocumentMeta> = obj<DocumentMeta>({
  id,
  agentId: id,
  title: text,
  mimeType: name,
  bytes: count,
  contentHash: name,
  status: oneOf('reading', 'chunked', 'embedding', 'indexed', 'failed', 'cancelled'),
  passages: count,
  embedded: count,
  error: opt(text),
  at: time,
});

export const turnCheck: Check<TurnRecord> = obj<TurnRecord>({
  id,
  agentId: id,
  triggerMessageId: id,
  status: oneOf('running', 'done', 'interrupted'),
  steps: counter,
  stopReason: opt(
    oneOf('end_turn', 'max_steps', 'invalid_tool_call', 'context_overflow', 'cancelled', 'error'),
  ),
  error: opt(text),
  startedAt: time,
  endedAt: opt(time),
});

export const stepCheck: Check<StepRecord> = obj<StepRecord>({
  turnId: id,
  agentId: id,
  step: counter,
  raw: text,
  thinking: opt(text),
  tool: opt(name),
  arguments: opt(record()),
  result: text,
  ok: bool,
  heartbeat: bool,
  at: time,
});

export const settingCheck: Check<SettingRow> = obj<SettingRow>({ key: id, value: json() });

export const vectorsCheck: Check<BackupVectors> = obj<BackupVectors>({
  agentId: id,
  kind: oneOf('message', 'passage'),
  modelId: name,
  dimension: num({ min: 1, max: LIMITS.dimension, integer: true }),
  ids: arr(id, { max: LIMITS.rowsPerTable }),
  data: str({ max: Number.MAX_SAFE_INTEGER }),
});
