/**
 * Several conversations of one agent (A22–A24, ADR 0152): each has its own queue, eviction and
 * summary; core and archival memory are shared; recall (the model's search and automatic
 * recall) reaches every conversation and names where a memory was said. Run over the in-memory
 * store and over Dexie on fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  afterTool,
  createAgentFixture,
  lastUserText,
  memoriesText,
  reply,
  step,
  systemText,
} from '../../testing/agent-fixture';
import { createRealStack } from '../../testing/real-stack';
import { randomText, seededRandom } from '../../testing/seeded-random';
import { defaultConversationId, type ConversationId } from '../model';
import type { CompletionRequest } from '../ports/llm-engine';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import type { AgentDeps } from './agent-deps';
import { deleteConversation, restoreConversation } from './delete-conversation';
import { runTurn } from './run-turn';
import type { TurnEvent } from './turn-events';

type Rule = (request: CompletionRequest) => string | Error;

interface World {
  deps: AgentDeps;
  store: MemoryStore;
  search: MemorySearch;
  agentId: string;
  /** Every step request (not summary requests), in order. */
  requests: CompletionRequest[];
  /** Every summary request, in order. */
  summaries: CompletionRequest[];
}

const open: Array<{ close(): void }> = [];
afterEach(() => open.splice(0).forEach((s) => s.close()));
let n = 0;

function recording(world: Pick<World, 'requests' | 'summaries'>, rule: Rule) {
  return (request: CompletionRequest) => {
    (request.jsonSchema ? world.requests : world.summaries).push(request);
    const out = rule(request);
    if (out instanceof Error) throw out;
    return out;
  };
}

async function inMemoryWorld(rule: Rule, window?: number): Promise<World> {
  const log = { requests: [], summaries: [] };
  const fx = await createAgentFixture({ rule: recording(log, rule), window });
  return { ...log, deps: fx.deps, store: fx.store, search: fx.search, agentId: fx.agent.id };
}

async function dexieWorld(rule: Rule, window?: number): Promise<World> {
  const log = { requests: [], summaries: [] };
  n += 1;
  const s = await createRealStack({
    dbName: `conversations-${n}-${Date.now()}`,
    rule: recording(log, rule),
    window,
    enforceSchema: false,
  });
  open.push(s.store);
  return { ...log, deps: s.deps, store: s.store, search: s.search, agentId: s.agent.id };
}

const FAMILY = 'conv-family';
const TRIP = 'conv-trip';

async function twoConversations(world: World): Promise<void> {
  const at = Date.UTC(2026, 0, 1, 8, 0, 0);
  await world.store.apply({
    conversations: [
      { id: FAMILY, agentId: world.agentId, title: 'Family', createdAt: at, updatedAt: at },
      { id: TRIP, agentId: world.agentId, title: 'Trip planning', createdAt: at, updatedAt: at },
    ],
  });
}

function say(world: World, text: string, conversationId?: ConversationId, events?: TurnEvent[]) {
  return runTurn(
    world.deps,
    world.agentId,
    { type: 'user_message', text },
    {
      ...(conversationId !== undefined ? { conversationId } : {}),
      ...(events ? { onEvent: (e: TurnEvent) => events.push(e) } : {}),
    },
  );
}

async function queueTexts(world: World, conversationId: ConversationId): Promise<string[]> {
  const queue = await world.store.queryMessages(world.agentId, { inContext: true, conversationId });
  return queue.filter((m) => m.role === 'user').map((m) => m.text);
}

/** Replies "OK."; saves "Name: Ana." to core memory when told the name. */
const chat: Rule = (request) => {
  if (/my name is ana/i.test(lastUserText(request)) && !afterTool(request))
    return step('core_memory_append', { label: 'human', content: 'Name: Ana.' }, true);
  return reply('OK.');
};

describe.each([
  ['in-memory store', inMemoryWorld],
  ['Dexie store', dexieWorld],
])('conversations of one agent (%s)', (_name, makeWorld) => {
  it('A22 A23: a fact told in one conversation is recalled into the other’s prompt, named by its conversation; the queues stay apart', async () => {
    const world = await makeWorld(chat);
    await twoConversations(world);
    await say(world, 'My sister Ingrid lives in Bergen.', FAMILY);
    await say(world, 'My name is Ana.', FAMILY);

    const events: TurnEvent[] = [];
    await say(world, 'Where does Ingrid live?', TRIP, events);
    const prompt = world.requests.at(-1) as CompletionRequest;
    // Automatic recall found the fact in "Family" and merged it in front of the question (C17).
    const memories = memoriesText(prompt);
    expect(memories).toContain('My sister Ingrid lives in Bergen.');
    expect(memories).toMatch(/\[\d{4}-\d\d-\d\d user, in "Family"\] "My sister Ingrid/);
    // The planned prompt is the one sent: it holds the memory too.
    const planned = events.flatMap((e) => (e.type === 'context.planned' ? [e.plan] : []));
    expect(planned[0]?.memories.map((m) => m.text).join('\n')).toContain('in "Family"');
    // …but Family's messages are not in Trip planning's queue, nor queued turns of its prompt.
    expect(prompt.messages.map((t) => t.content)).not.toContain(
      'My sister Ingrid lives in Bergen.',
    );
    expect(await queueTexts(world, TRIP)).toEqual(['Where does Ingrid live?']);
    expect(await queueTexts(world, FAMILY)).toEqual([
      'My sister Ingrid lives in Bergen.',
      'My name is Ana.',
    ]);
    // Core memory is the agent's: what Family saved is in Trip planning's system prompt.
    expect(systemText(prompt)).toContain('Name: Ana.');
  });

  it('A23: with one conversation a recalled line names no conversation', async () => {
    const world = await makeWorld(chat);
    for (let i = 0; i < 6; i += 1) await say(world, `Filler message number ${i} about nothing.`);
    await say(world, 'My sister Ingrid lives in Bergen.');
    // Push the fact out of the queue so that recall has something to page in.
    const all = await world.store.queryMessages(world.agentId, { inContext: true });
    await world.store.apply({ inContext: { ids: all.map((m) => m.id), inContext: false } });
    await say(world, 'Where does Ingrid live?');
    const memories = memoriesText(world.requests.at(-1) as CompletionRequest);
    expect(memories).toMatch(/\[\d{4}-\d\d-\d\d user\] "My sister Ingrid lives in Bergen\."/);
    expect(memories).not.toContain(', in ');
  });

  it('A23: conversation_search reaches the other conversation and names it; hits of this one say so', async () => {
    const world = await makeWorld((request) => {
      const question = lastUserText(request);
      if (/search/i.test(question) && !afterTool(request))
        return step('conversation_search', { query: 'Ingrid Bergen' }, true);
      return reply('OK.');
    });
    await twoConversations(world);
    await say(world, 'My sister Ingrid lives in Bergen.', FAMILY);
    await say(world, 'Ingrid visits Bergen museums.', TRIP);
    await say(world, 'Please search what you know.', TRIP);
    const [result] = (
      await world.store.queryMessages(world.agentId, { conversationId: TRIP, roles: ['tool'] })
    ).filter((m) => m.toolCall?.name === 'conversation_search');
    expect(result?.text).toMatch(/user · in "Family"\] "My sister Ingrid lives in Bergen\."/);
    expect(result?.text).toMatch(/user · in this conversation\] "Ingrid visits Bergen museums\."/);
  });

  it('A22: a turn without a named conversation continues the most recent one; another agent’s conversation is refused', async () => {
    const world = await makeWorld(chat);
    await twoConversations(world);
    await say(world, 'First in family.', FAMILY);
    await say(world, 'First in trip.', TRIP);
    await say(world, 'Where does this go?');
    expect(await queueTexts(world, TRIP)).toEqual(['First in trip.', 'Where does this go?']);

    const at = Date.UTC(2026, 0, 1);
    await world.store.apply({
      conversations: [
        { id: 'conv-other', agentId: 'agent-2', title: 'x', createdAt: at, updatedAt: at },
      ],
    });
    const before = await world.store.countMessages(world.agentId);
    const outcome = await say(world, 'Sneak in.', 'conv-other');
    expect(outcome.stopReason).toBe('error');
    expect(outcome.error?.code).toBe('not_found');
    expect(await world.store.countMessages(world.agentId)).toBe(before);
  });

  it('S23: the store refuses a message in another agent’s conversation, writing nothing of the change set', async () => {
    const world = await makeWorld(chat);
    await twoConversations(world);
    const before = await world.store.countMessages('agent-2');
    const message = {
      agentId: 'agent-2',
      conversationId: FAMILY,
      role: 'user' as const,
      text: 'not yours',
      at: 1,
      inContext: true,
      tokens: 2,
    };
    await expect(
      world.store.apply({
        messages: [
          { ...message, id: 'ok-1', conversationId: 'agent-2:conversation-1' },
          { ...message, id: 'bad-1' },
        ],
      }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await world.store.countMessages('agent-2')).toBe(before);
  });

  it('A22: a new conversation starts with core memory and an empty queue', async () => {
    const world = await makeWorld(chat);
    await twoConversations(world);
    await say(world, 'My name is Ana.', FAMILY);
    await say(world, 'Hello there.', TRIP);
    const prompt = world.requests.at(-1) as CompletionRequest;
    expect(systemText(prompt)).toContain('Name: Ana.');
    // system, then (maybe) the memories merged into the question: nothing of Family queued.
    const queued = prompt.messages.slice(1).map((t) => t.content);
    expect(queued).toHaveLength(1);
    expect(queued[0]?.endsWith('Hello there.')).toBe(true);
  });

  it('A22 C17: the memories kept in one conversation’s prompt survive a turn in another (its next request extends the last)', async () => {
    const world = await makeWorld((request) => reply(`Noted ${request.messages.length}.`));
    await twoConversations(world);
    await say(world, 'I drink green tea every morning.', TRIP);
    await say(world, 'What do I drink every morning?', FAMILY);
    const family1 = world.requests.at(-1) as CompletionRequest;
    expect(memoriesText(family1)).toContain('green tea every morning');
    await say(world, 'Any plans for Bergen?', TRIP);
    await say(world, 'And in the evening?', FAMILY);
    const family2 = world.requests.at(-1) as CompletionRequest;
    // The question of the previous Family turn still carries its memories, exactly as sent.
    expect(family2.messages.slice(0, family1.messages.length)).toEqual(family1.messages);
  });

  it('A22 C10: each conversation folds its own queue into its own summary chain', async () => {
    const world = await makeWorld(
      (request) => reply(randomText(seededRandom(request.messages.length), 40)),
      2048,
    );
    // The summarizer's answer depends on what it is asked to fold.
    const summarize = world.deps.engine.complete.bind(world.deps.engine);
    world.deps.engine.complete = async (request) => {
      if (request.jsonSchema) return summarize(request);
      world.summaries.push(request);
      const text = request.messages.map((t) => t.content).join('\n');
      const topic = /family fact/.test(text) ? 'family' : 'trip';
      return { text: `Summary of ${topic} ${world.summaries.length}.`, finishReason: 'stop' };
    };
    await twoConversations(world);
    const events: TurnEvent[] = [];
    for (let i = 0; i < 25; i += 1)
      await say(world, `family fact ${i} ${randomText(seededRandom(i), 30)}`, FAMILY, events);
    const familyFlushes = events.filter((e) => e.type === 'summary.created').length;
    expect(familyFlushes).toBeGreaterThanOrEqual(1);
    expect(await world.store.latestSummary(world.agentId, TRIP)).toBeUndefined();

    // The first Trip turn sees no summary of Family.
    await say(world, 'trip one: where should we go?', TRIP);
    const familySummary = await world.store.latestSummary(world.agentId, FAMILY);
    expect(familySummary?.text).toMatch(/^Summary of family/);
    expect(systemText(world.requests.at(-1) as CompletionRequest)).not.toContain(
      familySummary?.text ?? '-',
    );
    for (let i = 0; i < 25; i += 1)
      await say(world, `trip talk ${i} ${randomText(seededRandom(100 + i), 30)}`, TRIP);
    const trip = await world.store.listSummaries(world.agentId, TRIP);
    expect(trip.length).toBeGreaterThanOrEqual(1);
    expect(trip[0]?.version).toBe(1);
    expect(trip.every((s) => s.conversationId === TRIP)).toBe(true);
    expect(trip.at(-1)?.text).toMatch(/^Summary of trip/);
    // Trip's first summary started from Trip's first message, not from Family's.
    const [firstTrip] = await world.store.queryMessages(world.agentId, {
      conversationId: TRIP,
      limit: 1,
    });
    expect(trip[0]?.fromSeq).toBe(firstTrip?.seq);
    // …and Family's chain is untouched.
    const family = await world.store.listSummaries(world.agentId, FAMILY);
    expect(family).toHaveLength(familyFlushes);
    expect(family.every((s) => s.conversationId === FAMILY)).toBe(true);
  });

  it('A24: deleting a conversation removes its messages from recall in the others; Undo brings them back', async () => {
    const world = await makeWorld(chat);
    await twoConversations(world);
    await say(world, 'My sister Ingrid lives in Bergen.', FAMILY);
    const deleted = await deleteConversation(world.deps, FAMILY);
    expect(deleted.messages.map((m) => m.text)).toContain('My sister Ingrid lives in Bergen.');
    const hits = async () =>
      (
        await world.search.search({
          agentId: world.agentId,
          text: 'Ingrid Bergen',
          kinds: ['message'],
          mode: 'lexical',
          page: 1,
          pageSize: 10,
        })
      ).hits.map((h) => h.text);
    expect(await hits()).toEqual([]);
    // Still gone after the indexes are loaded again from the store (the next start).
    await world.search.loadAgent(world.agentId);
    expect(await hits()).toEqual([]);
    await say(world, 'Where does Ingrid live?', TRIP);
    expect(memoriesText(world.requests.at(-1) as CompletionRequest)).not.toContain('Bergen');

    await restoreConversation(world.deps, deleted);
    expect(await hits()).toContain('My sister Ingrid lives in Bergen.');
    await world.search.loadAgent(world.agentId);
    expect(await hits()).toContain('My sister Ingrid lives in Bergen.');
    await say(world, 'Tell me again where Ingrid lives?', TRIP);
    expect(memoriesText(world.requests.at(-1) as CompletionRequest)).toContain(
      'in "Family"] "My sister Ingrid lives in Bergen."',
    );
    expect(await world.store.getConversation(FAMILY)).toEqual(deleted.conversation);
  });

  it('A22: a retry runs in the conversation of its trigger', async () => {
    let fail = true;
    const world = await makeWorld((request) => {
      if (fail) {
        fail = false;
        return new Error('engine down');
      }
      return reply(`Answer to ${lastUserText(request)}`);
    });
    await twoConversations(world);
    const broken = await say(world, 'Question in family.', FAMILY);
    expect(broken.stopReason).toBe('error');
    await say(world, 'Chat in trip.', TRIP);
    const retried = await runTurn(world.deps, world.agentId, {
      type: 'retry',
      turnId: broken.turnId ?? '',
    });
    expect(retried.replies).toEqual(['Answer to Question in family.']);
    const family = await world.store.queryMessages(world.agentId, { conversationId: FAMILY });
    expect(family.map((m) => m.text)).toContain('Answer to Question in family.');
    expect(await queueTexts(world, TRIP)).toEqual(['Chat in trip.']);
  });
});

describe('the first conversation', () => {
  it('A22: an agent’s turns without conversations land in its first conversation', async () => {
    const world = await inMemoryWorld(chat);
    await say(world, 'Hello.');
    const [only] = await world.store.listConversations(world.agentId);
    expect(only?.id).toBe(defaultConversationId(world.agentId));
    expect(await queueTexts(world, defaultConversationId(world.agentId))).toEqual(['Hello.']);
  });
});
