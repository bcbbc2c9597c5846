/**
 * What the live loop stores and what recall search finds in it (issue 13): names a user knows on
 * each message, only visible text in the index, a reply linked to the message it answers even
 * with tool steps between them, invalid outputs kept for the step log but out of search. The
 * real stack: Dexie over fake-indexeddb, MiniSearch, Llama 3 counts, runTurn with the scripted
 * engine.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../../ports/llm-engine';
import { afterTool, lastUserText, reply, step } from '../../../testing/agent-fixture';
import { createRealStack } from '../../../testing/real-stack';
import { DISPLAY_NAME_SETTING } from '../display-names';
import { runTurn } from '../run-turn';

/** A model that searches before it answers, once writes a broken step, and then replies. */
function searchingModel() {
  let broke = false;
  return (r: CompletionRequest): string => {
    const user = lastUserText(r);
    if (/lisbon/i.test(user) && !afterTool(r)) {
      return step('conversation_search', { query: 'sister' }, true, 'Look it up first.');
    }
    if (/lisbon/i.test(user) && afterTool(r, 'conversation_search') && !broke) {
      broke = true;
      // Not JSON the registry accepts: an unknown function, echoed back to the model.
      return JSON.stringify({
        thinking: 'x',
        function: 'send_mesage',
        arguments: { message: 'Lisbon broken draft' },
        request_heartbeat: false,
      });
    }
    if (/lisbon/i.test(user)) return reply('She moved there last spring, after the wedding.');
    return reply('Lovely, tell me more.');
  };
}

async function chat() {
  const stack = await createRealStack({
    dbName: `visible-recall-${Math.random()}`,
    rule: searchingModel(),
    enforceSchema: false,
  });
  await stack.store.setSetting(DISPLAY_NAME_SETTING, '  Ada  ');
  const run = (text: string) => runTurn(stack.deps, stack.agent.id, { type: 'user_message', text });
  await run('I bake bread on Sundays.');
  const outcome = await run('Where does my sister live now, Lisbon?');
  return { stack, outcome };
}

describe('the live store holds what a person sees, and search indexes only that', () => {
  it("A18: a user message carries the display name, a reply the agent's name, other steps none", async () => {
    const { stack, outcome } = await chat();
    expect(outcome.stopReason).toBe('end_turn');
    const messages = await stack.store.queryMessages(stack.agent.id);
    const user = messages.filter((m) => m.role === 'user');
    expect(user.map((m) => m.author)).toEqual(['Ada', 'Ada']);
    const replies = messages.filter(
      (m) => m.role === 'assistant' && m.toolCall?.name === 'send_message',
    );
    expect(replies.map((m) => m.author)).toEqual(['Loci', 'Loci']);
    const otherSteps = messages.filter(
      (m) => m.role === 'assistant' && m.toolCall?.name !== 'send_message',
    );
    expect(otherSteps.length).toBe(2); // the search call and the invalid output
    expect(otherSteps.every((m) => m.author === undefined)).toBe(true);
  });

  it('A18: without a display name the user message has no author', async () => {
    const stack = await createRealStack({
      dbName: `visible-recall-anon-${Math.random()}`,
      rule: () => reply('Hello!'),
    });
    await stack.store.setSetting(DISPLAY_NAME_SETTING, '   ');
    await runTurn(stack.deps, stack.agent.id, { type: 'user_message', text: 'Hi' });
    const [first] = await stack.store.queryMessages(stack.agent.id, { roles: ['user'] });
    expect(first?.author).toBeUndefined();
  });

  it('R19: conversation_search finds the reply itself and never an empty or invalid row', async () => {
    const { stack } = await chat();
    for (const search of [stack.search]) {
      const page = await search.search({
        agentId: stack.agent.id,
        text: 'sister Lisbon',
        kinds: ['message'],
        mode: 'hybrid',
        page: 1,
        pageSize: 10,
        roles: ['user', 'assistant'],
      });
      const texts = page.hits.map((h) => h.text);
      expect(texts).toContain('She moved there last spring, after the wedding.');
      expect(texts).toContain('Where does my sister live now, Lisbon?');
      expect(texts.every((t) => t.trim() !== '')).toBe(true);
      expect(texts.some((t) => t.includes('broken draft'))).toBe(false);
    }
    // The invalid output is kept where it belongs: the step log (and the queue, for the model).
    const turns = await stack.store.listTurns(stack.agent.id);
    const steps = (await Promise.all(turns.map((t) => stack.store.listSteps(t.id)))).flat();
    expect(steps.some((s) => !s.ok && s.raw.includes('broken draft'))).toBe(true);
  });

  it('R20: a reply is indexed with the message it answers, across the tool steps between them', async () => {
    const { stack } = await chat();
    // "sister" appears only in the user's question; the reply is found through it.
    const page = await stack.search.search({
      agentId: stack.agent.id,
      text: 'sister',
      kinds: ['message'],
      mode: 'lexical',
      page: 1,
      pageSize: 10,
      roles: ['assistant'],
    });
    expect(page.hits.map((h) => h.text)).toEqual([
      'She moved there last spring, after the wedding.',
    ]);
    // Both the bread message and its reply match "bread"; the name in the query decides (R22).
    const named = (who: string) =>
      stack.search.search({
        agentId: stack.agent.id,
        text: `What did ${who} say about bread?`,
        kinds: ['message'],
        mode: 'lexical',
        page: 1,
        pageSize: 3,
      });
    const top2 = async (who: string) => (await named(who)).hits.slice(0, 2).map((h) => h.text);
    expect(await top2('Ada')).toEqual(['I bake bread on Sundays.', 'Lovely, tell me more.']);
    expect(await top2('Loci')).toEqual(['Lovely, tell me more.', 'I bake bread on Sundays.']);
  });

  it('R21: date search pages only visible messages, and a reload indexes the same rows', async () => {
    const { stack } = await chat();
    const all = await stack.search.searchByDate(stack.agent.id, 0, Date.UTC(2100, 0, 1), 1, 50);
    expect(all.hits.map((h) => `${h.message?.role}:${h.text}`)).toEqual([
      'user:I bake bread on Sundays.',
      'assistant:Lovely, tell me more.',
      'user:Where does my sister live now, Lisbon?',
      'assistant:She moved there last spring, after the wedding.',
    ]);
    expect(all.total).toBe(4);
    const second = await stack.search.searchByDate(stack.agent.id, 0, Date.UTC(2100, 0, 1), 2, 3);
    expect(second.hits.map((h) => h.text)).toEqual([
      'She moved there last spring, after the wedding.',
    ]);
    // Rebuilt from the store (a reload), the index keeps the same rows and links.
    await stack.search.loadAgent('nobody');
    await stack.search.loadAgent(stack.agent.id);
    const again = await stack.search.searchByDate(stack.agent.id, 0, Date.UTC(2100, 0, 1), 1, 50);
    expect(again.hits.map((h) => h.id)).toEqual(all.hits.map((h) => h.id));
    const linked = await stack.search.search({
      agentId: stack.agent.id,
      text: 'sister',
      kinds: ['message'],
      mode: 'lexical',
      page: 1,
      pageSize: 10,
      roles: ['assistant'],
    });
    expect(linked.hits.map((h) => h.text)).toEqual([
      'She moved there last spring, after the wedding.',
    ]);
  });
});
