import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { reply } from '../../testing/agent-fixture';
import { createRealStack, type RealStack } from '../../testing/real-stack';
import type { Message, TurnId } from '../model';
import { shelveReply, switchReplyVersion, unshelveReply, versionPosition } from './reply-versions';
import { runTurn } from './run-turn';

const stacks: RealStack[] = [];
afterEach(() => stacks.splice(0).forEach((s) => s.store.close()));
let n = 0;

/** The model answers "Version k: …" with a word only that version has. */
const WORDS = ['walrus', 'pelican', 'narwhal', 'ocelot'];

async function stack(): Promise<RealStack> {
  n += 1;
  let k = 0;
  const s = await createRealStack({
    dbName: `reply-versions-${n}-${Date.now()}`,
    autoRecall: false,
    rule: (request) =>
      request.jsonSchema ? reply(`Version ${++k}: a ${WORDS[k - 1]} story`) : 'summary',
  });
  stacks.push(s);
  return s;
}

async function found(s: RealStack, text: string): Promise<string[]> {
  const page = await s.search.search({
    agentId: s.agent.id,
    text,
    kinds: ['message'],
    mode: 'lexical',
    page: 1,
    pageSize: 10,
  });
  return page.hits.map((h) => h.id);
}

/** Sends one message, then regenerates its reply twice, as the chat's Regenerate does. */
async function threeVersions(s: RealStack): Promise<{ trigger: Message; turnIds: TurnId[] }> {
  const first = await runTurn(s.deps, s.agent.id, { type: 'user_message', text: 'A story?' });
  const turnIds = [first.turnId!];
  const [trigger] = await s.store.queryMessages(s.agent.id, { roles: ['user'] });
  for (let i = 0; i < 2; i += 1) {
    await shelveReply(s.deps, s.agent.id, trigger!.id);
    const again = await runTurn(s.deps, s.agent.id, { type: 'retry', turnId: turnIds.at(-1)! });
    turnIds.push(again.turnId!);
  }
  return { trigger: (await s.store.getMessages([trigger!.id]))[0]!, turnIds };
}

const replies = async (s: RealStack, query = {}) =>
  (await s.store.queryMessages(s.agent.id, query))
    .filter((m) => m.role === 'assistant')
    .map((m) => m.text);

describe('reply versions (U331, ADR 0213)', () => {
  it('U331: Regenerate keeps each earlier reply as a version out of the queue and search', async () => {
    const s = await stack();
    const { trigger } = await threeVersions(s);
    expect(trigger.otherVersions).toHaveLength(2);
    const shown = (await s.store.queryMessages(s.agent.id)).filter((m) => m.seq > trigger.seq);
    expect(versionPosition(trigger, shown)).toEqual({ shown: 3, count: 3 });
    expect(await replies(s, { inContext: true })).toEqual(['Version 3: a narwhal story']);
    expect(await found(s, 'walrus')).toEqual([]);
    expect(await found(s, 'narwhal')).toHaveLength(1);
  });

  it('U331: switching keeps the chosen version: it alone is in the queue, recall and search', async () => {
    const s = await stack();
    const { trigger } = await threeVersions(s);
    expect(await switchReplyVersion(s.deps, s.agent.id, trigger.id, 1)).toBe(true);
    expect(await replies(s, { inContext: true })).toEqual(['Version 1: a walrus story']);
    expect(await found(s, 'walrus')).toHaveLength(1);
    expect(await found(s, 'narwhal')).toEqual([]);
    const [holder] = await s.store.getMessages([trigger.id]);
    const shown = (await s.store.queryMessages(s.agent.id)).filter((m) => m.seq > trigger.seq);
    expect(versionPosition(holder!, shown)).toEqual({ shown: 1, count: 3 });
    // The same version again, or one that does not exist, changes nothing.
    expect(await switchReplyVersion(s.deps, s.agent.id, trigger.id, 1)).toBe(false);
    expect(await switchReplyVersion(s.deps, s.agent.id, trigger.id, 4)).toBe(false);
    // A reload rebuilds the index from the store: still only the kept version.
    await s.search.loadAgent(s.agent.id);
    expect(await found(s, 'narwhal')).toEqual([]);
    expect(await found(s, 'walrus')).toHaveLength(1);
  });

  it('U331: the next message answers after the kept version, and the others stay held', async () => {
    const s = await stack();
    const { trigger } = await threeVersions(s);
    await switchReplyVersion(s.deps, s.agent.id, trigger.id, 2);
    await runTurn(s.deps, s.agent.id, { type: 'user_message', text: 'And then?' });
    const all = await s.store.queryMessages(s.agent.id);
    expect(all.filter((m) => m.role !== 'tool').map((m) => m.text)).toEqual([
      'A story?',
      'Version 2: a pelican story',
      'And then?',
      'Version 4: a ocelot story',
    ]);
    expect(all[0]?.otherVersions?.map((v) => v.messages.at(-1)?.text)).toEqual([
      'Version 1: a walrus story',
      'Version 3: a narwhal story',
    ]);
  });

  it('U331: a held version that does not fit its trigger is refused, and nothing moves', async () => {
    const s = await stack();
    const { trigger } = await threeVersions(s);
    const [first, second] = trigger.otherVersions!;
    const foreign = {
      ...first!,
      messages: first!.messages.map((m) => ({ ...m, agentId: 'someone-else' })),
    };
    await s.store.swapMessages({
      remove: [],
      restore: { messages: [], turns: [], steps: [] },
      holder: { id: trigger.id, otherVersions: [foreign, second!] },
    });
    await expect(switchReplyVersion(s.deps, s.agent.id, trigger.id, 1)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await replies(s)).toEqual(['Version 3: a narwhal story']);
  });

  it('U331: a regenerate that never starts puts the held version back', async () => {
    const s = await stack();
    await runTurn(s.deps, s.agent.id, { type: 'user_message', text: 'A story?' });
    const [trigger] = await s.store.queryMessages(s.agent.id, { roles: ['user'] });
    const held = await shelveReply(s.deps, s.agent.id, trigger!.id);
    expect(await replies(s)).toEqual([]);
    await unshelveReply(s.deps, s.agent.id, trigger!.id, held!);
    expect(await replies(s)).toEqual(['Version 1: a walrus story']);
    expect((await s.store.getMessages([trigger!.id]))[0]).not.toHaveProperty('otherVersions');
    expect(await found(s, 'walrus')).toHaveLength(1);
  });
});
