import {
  conversationOf,
  defaultConversationId,
  FIRST_CONVERSATION_TITLE,
  type Conversation,
  type ConversationId,
  type StepRecord,
  type TurnRecord,
} from '../model';
import { err, ok, type Result } from '../result';
import { AGENT_OWNED_TABLES, withoutTables } from '../ports/store-tables';
import { bytesToFloat32, decodeBase64 } from './base64';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupFile,
  type BackupProblem,
  type BackupScope,
  type BackupTables,
  type DecodedBackup,
} from './backup-format';
import { arr, CheckFailure, fail, num, obj, oneOf, opt, str, tagged, type Check } from './checks';
import {
  agentCheck,
  blockCheck,
  blockVersionCheck,
  conversationCheck,
  documentCheck,
  LIMITS,
  messageCheck,
  passageCheck,
  settingCheck,
  stepCheck,
  summaryCheck,
  turnCheck,
  vectorsCheck,
} from './record-checks';

const rows = <T>(check: Check<T>) => arr(check, { max: LIMITS.rowsPerTable });

const tablesCheck: Check<BackupTables> = obj<BackupTables>({
  agents: rows(agentCheck),
  conversations: opt(rows(conversationCheck)),
  blocks: rows(blockCheck),
  blockHistory: rows(blockVersionCheck),
  messages: rows(messageCheck),
  summaries: rows(summaryCheck),
  passages: rows(passageCheck),
  documents: rows(documentCheck),
  turns: rows(turnCheck),
  steps: rows(stepCheck),
  settings: rows(settingCheck),
  vectors: rows(vectorsCheck),
});

const scopeCheck: Check<BackupScope> = tagged<BackupScope>({
  all: obj<{ type: 'all' }>({ type: oneOf('all') }),
  agent: obj<{ type: 'agent'; agentId: string }>({
    type: oneOf('agent'),
    agentId: str({ min: 1, max: LIMITS.idChars }),
  }),
});

const fileCheck: Check<BackupFile> = obj<BackupFile>({
  format: oneOf(BACKUP_FORMAT),
  version: num({ integer: true, min: 1 }),
  exportedAt: num({ min: 0, integer: true }),
  scope: scopeCheck,
  tables: tablesCheck,
});

/** Throws at the first repeated key of `items` (keys made by `key`). */
function unique<T>(
  items: readonly T[],
  path: string,
  key: (item: T) => string,
  what: string,
): Set<string> {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) fail(`${path}[${i}]`, `repeats the ${what} ${k}`);
    seen.add(k);
  });
  return seen;
}

function references<T>(
  items: readonly T[],
  path: string,
  field: keyof T & string,
  known: Set<string>,
  what: string,
  skip: (item: T) => boolean = () => false,
): void {
  items.forEach((item, i) => {
    if (skip(item)) return;
    const value = item[field] as unknown as string;
    if (!known.has(value))
      fail(`${path}[${i}].${field}`, `refers to ${what} "${value}", which is not in the file`);
  });
}

/** Fails unless each item's `agentId` is the agent of the record its `field` refers to. */
function sameAgent<T extends { agentId: string }>(
  items: readonly T[],
  path: string,
  field: keyof T & string,
  owners: ReadonlyMap<string, string>,
  what: string,
  skip: (item: T) => boolean = () => false,
): void {
  items.forEach((item, i) => {
    if (skip(item)) return;
    const target = item[field] as unknown as string;
    const owner = owners.get(target);
    if (owner !== item.agentId)
      fail(
        `${path}[${i}].agentId`,
        `is "${item.agentId}", but its ${what} "${target}" belongs to agent "${owner}"`,
      );
  });
}

type ConversationRow = { agentId: string; conversationId?: ConversationId; at: number };

/**
 * The conversations of the file, checked (S25, S26): each belongs to an agent of the file, and
 * every message and summary names a conversation of its own agent. A version 1 file has no
 * table: each agent gets its first conversation ("First conversation", as the schema v2
 * upgrade makes), and a conversation a row names is made for that row's agent.
 */
function checkConversations(
  file: BackupFile,
  agents: Set<string>,
  p: (name: keyof BackupTables) => string,
): Conversation[] {
  const t = file.tables;
  const named: Array<[string, readonly ConversationRow[]]> = [
    [p('messages'), t.messages],
    [p('summaries'), t.summaries],
  ];
  if (t.conversations === undefined) {
    if (file.version >= 2) fail(p('conversations'), 'is missing');
    const made = new Map<ConversationId, Conversation>();
    for (const agent of t.agents) {
      const id = defaultConversationId(agent.id);
      made.set(id, {
        id,
        agentId: agent.id,
        title: FIRST_CONVERSATION_TITLE,
        createdAt: agent.createdAt,
        updatedAt: agent.createdAt,
      });
    }
    for (const [path, list] of named) {
      list.forEach((row, i) => {
        const id = conversationOf(row);
        const found = made.get(id);
        if (!found) {
          made.set(id, {
            id,
            agentId: row.agentId,
            title:
              id === defaultConversationId(row.agentId) ? FIRST_CONVERSATION_TITLE : 'Conversation',
            createdAt: row.at,
            updatedAt: row.at,
          });
        } else if (found.agentId !== row.agentId) {
          fail(
            `${path}[${i}].conversationId`,
            `names conversation "${id}" of agent "${found.agentId}", not of its own agent "${row.agentId}"`,
          );
        } else {
          found.createdAt = Math.min(found.createdAt, row.at);
          found.updatedAt = Math.max(found.updatedAt, row.at);
        }
      });
    }
    return [...made.values()];
  }
  const list = t.conversations;
  unique(list, p('conversations'), (c) => c.id, 'conversation id');
  references(list, p('conversations'), 'agentId', agents, 'the agent');
  const owner = new Map(list.map((c) => [c.id, c.agentId]));
  for (const [path, rowsOf] of named) {
    rowsOf.forEach((row, i) => {
      const id = conversationOf(row);
      const agent = owner.get(id);
      if (agent === undefined)
        fail(
          `${path}[${i}].conversationId`,
          `refers to conversation "${id}", which is not in the file`,
        );
      if (agent !== row.agentId)
        fail(
          `${path}[${i}].conversationId`,
          `names conversation "${id}" of agent "${agent}", not of its own agent "${row.agentId}"`,
        );
    });
  }
  return list;
}

/**
 * The reply versions a message holds (U331, S43) fit where a switch puts them back: each held row
 * is its holder's agent's, in its holder's conversation, after it, and no held message repeats a
 * message of the file; a held turn or step is the holder's agent's.
 */
function checkHeldVersions(list: BackupTables['messages'], ids: Set<string>, path: string): void {
  list.forEach((holder, i) => {
    holder.otherVersions?.forEach((version, v) => {
      const at = `${path}[${i}].otherVersions[${v}]`;
      version.messages.forEach((m, j) => {
        if (m.agentId !== holder.agentId)
          fail(`${at}.messages[${j}].agentId`, "is not its holder's agent");
        if (conversationOf(m) !== conversationOf(holder))
          fail(`${at}.messages[${j}].conversationId`, "is not its holder's conversation");
        if (m.seq <= holder.seq) fail(`${at}.messages[${j}].seq`, 'is not after its holder');
        if (ids.has(m.id)) fail(`${at}.messages[${j}].id`, 'repeats a message of the file');
      });
      for (const name of ['turns', 'steps'] as const) {
        version[name].forEach((row, j) => {
          if (row.agentId !== holder.agentId)
            fail(`${at}.${name}[${j}].agentId`, "is not its holder's agent");
        });
      }
    });
  });
}

function decodeFloats(text: string, expected: number, path: string): Float32Array {
  const bytes = decodeBase64(text);
  const floats = bytes ? bytesToFloat32(bytes) : null;
  if (!floats) fail(path, 'is not base64 of Float32 values');
  if (floats.length !== expected)
    fail(path, `holds ${floats.length} numbers; the declared dimension needs ${expected}`);
  for (let i = 0; i < floats.length; i += 1) {
    if (!Number.isFinite(floats[i])) fail(path, `holds a number that is not finite at ${i}`);
  }
  return floats;
}

function checkReferences(file: BackupFile): DecodedBackup {
  const t = file.tables;
  const p = (name: keyof BackupTables) => `tables.${name}`;
  const agents = unique(t.agents, p('agents'), (a) => a.id, 'agent id');
  if (file.scope.type === 'agent') {
    const only = file.scope.agentId;
    if (t.agents.length !== 1 || !agents.has(only))
      fail(p('agents'), `must hold exactly the agent "${only}" of the scope`);
    if (t.settings.length > 0) fail(p('settings'), 'must be empty in a one-agent backup');
  }
  // Conversations are checked with the rows that name them, in `checkConversations`.
  for (const name of withoutTables(AGENT_OWNED_TABLES, ['conversations'])) {
    references(t[name] as Array<{ agentId: string }>, p(name), 'agentId', agents, 'the agent');
  }
  unique(t.blocks, p('blocks'), (b) => JSON.stringify([b.agentId, b.label]), 'block');
  const versions = unique(
    t.blockHistory,
    p('blockHistory'),
    (h) => JSON.stringify([h.agentId, h.label, h.version]),
    'block version',
  );
  t.blocks.forEach((b, i) => {
    if (b.value.length > b.charLimit) {
      fail(
        `${p('blocks')}[${i}].value`,
        `is ${b.value.length} characters long; the block's charLimit is ${b.charLimit}`,
      );
    }
    if (!versions.has(JSON.stringify([b.agentId, b.label, b.version]))) {
      fail(
        `${p('blocks')}[${i}].version`,
        `has no history row for version ${b.version} of block "${b.label}"`,
      );
    }
  });
  const messages = unique(t.messages, p('messages'), (m) => m.id, 'message id');
  unique(t.messages, p('messages'), (m) => JSON.stringify([m.agentId, m.seq]), 'agent and seq');
  checkHeldVersions(t.messages, messages, p('messages'));
  unique(t.summaries, p('summaries'), (s) => s.id, 'summary id');
  const documents = unique(t.documents, p('documents'), (d) => d.id, 'document id');
  const docAgent = new Map(t.documents.map((d) => [d.id, d.agentId]));
  unique(t.passages, p('passages'), (x) => x.id, 'passage id');
  const passageAgent = new Map(t.passages.map((x) => [x.id, x.agentId]));
  const turns = unique(t.turns, p('turns'), (x) => x.id, 'turn id');
  // Earlier versions kept a turn when its trigger message was deleted (edit and resend, delete
  // a message or a chat): such a turn is left out with its steps, not the whole file (S41).
  const orphan = (x: TurnRecord): boolean => !messages.has(x.triggerMessageId);
  const orphans = new Set(t.turns.filter(orphan).map((x) => x.id));
  const ofOrphan = (x: StepRecord): boolean => orphans.has(x.turnId);
  references(t.steps, p('steps'), 'turnId', turns, 'the turn', ofOrphan);
  // A record must belong to the agent of what it refers to: otherwise a later one-agent export
  // would leave it out (and be rejected), and deleting one agent would delete the other's rows.
  const messageAgent = new Map(t.messages.map((m) => [m.id, m.agentId]));
  const turnAgent = new Map(t.turns.map((x) => [x.id, x.agentId]));
  sameAgent(t.turns, p('turns'), 'triggerMessageId', messageAgent, 'message', orphan);
  sameAgent(t.steps, p('steps'), 'turnId', turnAgent, 'turn');
  unique(t.steps, p('steps'), (s) => JSON.stringify([s.turnId, s.step]), 'turn and step');
  unique(t.settings, p('settings'), (s) => s.key, 'setting key');
  const conversations = checkConversations(file, agents, p);

  const passages = t.passages.map((x, i) => {
    const path = `${p('passages')}[${i}]`;
    if (x.source.type === 'document') {
      if (!documents.has(x.source.documentId) || docAgent.get(x.source.documentId) !== x.agentId) {
        fail(
          `${path}.source.documentId`,
          `refers to document "${x.source.documentId}", which is not in the file for this agent`,
        );
      }
    }
    if (x.embedding === null) return { ...x, embedding: null };
    if (x.embeddingModel === null)
      fail(`${path}.embeddingModel`, 'must name the model of the embedding');
    if (x.dimension < 1) fail(`${path}.dimension`, 'must be ≥ 1 when an embedding is present');
    return { ...x, embedding: decodeFloats(x.embedding, x.dimension, `${path}.embedding`) };
  });
  let vectorsLeftOut = 0;
  const vectors = t.vectors.flatMap((v, i) => {
    const path = `${p('vectors')}[${i}]`;
    const owner = v.kind === 'message' ? messageAgent : passageAgent;
    const keep: number[] = [];
    v.ids.forEach((id, j) => {
      // The vector of a deleted message or passage (earlier versions kept it): left out (S41).
      if (!owner.has(id)) return;
      if (owner.get(id) !== v.agentId)
        fail(`${path}.ids[${j}]`, `refers to ${v.kind} "${id}" of another agent`);
      keep.push(j);
    });
    const data = decodeFloats(v.data, v.ids.length * v.dimension, `${path}.data`);
    vectorsLeftOut += v.ids.length - keep.length;
    if (keep.length === v.ids.length) return [{ ...v, data }];
    if (keep.length === 0) return [];
    const d = v.dimension;
    const kept = new Float32Array(keep.length * d);
    keep.forEach((from, to) => kept.set(data.subarray(from * d, from * d + d), to * d));
    return [{ ...v, ids: keep.map((j) => v.ids[j]!), data: kept }];
  });
  const steps = t.steps.filter((x) => !ofOrphan(x));
  return {
    version: file.version,
    exportedAt: file.exportedAt,
    scope: file.scope,
    leftOut: {
      turns: orphans.size,
      steps: t.steps.length - steps.length,
      vectors: vectorsLeftOut,
    },
    tables: {
      ...t,
      turns: t.turns.filter((x) => !orphan(x)),
      steps,
      conversations,
      // Every row names its conversation, as the v2 store writes it (a v1 row has none).
      messages: t.messages.map((m) => ({ ...m, conversationId: conversationOf(m) })),
      summaries: t.summaries.map((x) => ({ ...x, conversationId: conversationOf(x) })),
      passages,
      vectors,
    },
  };
}

/**
 * Validates a whole parsed backup before anything is written: format and version, every field's
 * type and size, unique ids, references (every record's agent, documents of passages, turns of
 * steps, trigger messages of turns, ids of vectors, the conversation of each message and
 * summary) and embedding lengths against the declared
 * dimension. Returns the decoded backup, or the first problem with its JSON path.
 *
 * Two dangling references that earlier versions wrote after ordinary use are repaired instead
 * (S41, ADR 0185): a turn whose trigger message is not in the file is left out with its steps,
 * and so is a vector whose message or passage is not in the file; `leftOut` counts them. A
 * reference to another agent's record, or a step of a turn never in the file, still fails.
 */
export function validateBackup(value: unknown): Result<DecodedBackup, BackupProblem> {
  try {
    const version = (value as { version?: unknown } | null)?.version;
    const format = (value as { format?: unknown } | null)?.format;
    // Only a whole version above ours was made by a newer Loci; 0.5 or -1 is just invalid.
    if (
      format === BACKUP_FORMAT &&
      typeof version === 'number' &&
      Number.isInteger(version) &&
      version > BACKUP_VERSION
    ) {
      return err({
        code: 'backup_unsupported_version',
        path: 'version',
        message: `This backup has format version ${version}, made by a newer Loci; this app reads versions 1 to ${BACKUP_VERSION}.`,
      });
    }
    return ok(checkReferences(fileCheck(value, '$')));
  } catch (error) {
    if (error instanceof CheckFailure) {
      const path = error.path.replace(/^\$\.?/, '') || '$';
      const subject = path === '$' ? 'the file' : path;
      return err({
        code: 'backup_invalid',
        path,
        message: `Invalid backup: ${subject} ${error.message}.`,
      });
    }
    throw error;
  }
}
