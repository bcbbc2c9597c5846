import { describe, expect, it } from 'vitest';
import { createAgentFixture, memoriesText, reply } from '../../testing/agent-fixture';
import type { CompletionRequest } from '../ports/llm-engine';
import type { Message } from '../model';
import type { MemorySearch, SearchHit, SearchQuery } from '../ports/memory-search';
import { autoRecall, namedAuthors } from './auto-recall';
import { createAgentRecord } from './create-agent-record';
import { runTurn } from './run-turn';
import type { TurnEvent } from './turn-events';

async function seeded(autoRecall: boolean) {
  const fx = await createAgentFixture({
    autoRecall,
    rule: (r: CompletionRequest) =>
      reply(
        memoriesText(r).includes('[p:p-cat] saved note: "The cat is called Miso."')
          ? 'Miso!'
          : 'Who?',
      ),
  });
  await fx.store.apply({
    passages: [
      {
        id: 'p-cat',
        agentId: fx.agent.id,
        text: 'The cat is called Miso.',
        source: { type: 'memory' },
        tags: [],
        at: 0,
        embedding: null,
        embeddingModel: null,
        dimension: 0,
      },
    ],
  });
  await fx.search.loadAgent(fx.agent.id);
  return fx;
}

/** A search that answers each query text with a fixed ranking of recall messages. */
function rankedSearch(
  rankings: Record<string, string[]>,
  authors: Record<string, string> = {},
  texts: Record<string, string> = {},
): MemorySearch & { asked: string[]; modes: string[] } {
  const asked: string[] = [];
  const modes: string[] = [];
  const hit = (id: string): SearchHit => {
    const message: Message = {
      id,
      agentId: 'a',
      seq: 1,
      role: 'user',
      ...(authors[id] ? { author: authors[id] } : {}),
      // Only a stop word in common unless a test gives texts: no feedback query (A28).
      text: texts[id] ?? `about ${id}`,
      at: 0,
      inContext: false,
      tokens: 0,
    };
    return { id, kind: 'message', score: 1, text: message.text, at: 0, message };
  };
  return {
    asked,
    modes,
    search: (q: SearchQuery) => {
      asked.push(q.text);
      modes.push(q.mode);
      const hits = (rankings[q.text] ?? []).map(hit);
      return Promise.resolve({ hits, total: hits.length, page: 1, pageSize: q.pageSize });
    },
    searchByDate: () => Promise.reject(new Error('unused')),
    indexMessages: () => Promise.resolve(),
    indexPassages: () => Promise.resolve(),
    removePassages: () => Promise.resolve(),
    removeMessages: () => Promise.resolve(),
    loadAgent: () => Promise.resolve(),
  };
}

describe('automatic recall', () => {
  it('A11: the trigger alone is the query; the last reply in the queue is not searched with it (ADR 0215)', async () => {
    const { agent } = createAgentRecord({ id: 'a', name: 'Loci', now: 0 });
    const lastReply: Message = {
      id: 'r',
      agentId: 'a',
      seq: 1,
      role: 'assistant',
      text: 'The chili plants like the warm window.',
      toolCall: {
        name: 'send_message',
        arguments: { message: 'The chili plants like the warm window.' },
      },
      at: 0,
      inContext: true,
      tokens: 0,
    };
    const question = 'Where does my sister live?';
    const search = rankedSearch({
      [question]: ['family', 'lisbon'],
      [`${question}\n${lastReply.text}`]: ['chili-1', 'lisbon'],
    });
    const memories = await autoRecall({ agent, search, query: question, queue: [lastReply] });
    expect(search.asked).toEqual([question]);
    expect(memories.map((m) => m.id)).toEqual(['family', 'lisbon']);
  });

  it('A21: a memory by the one participant the trigger names moves up; naming both lifts no one (ADR 0095)', async () => {
    const { agent } = createAgentRecord({ id: 'a', name: 'Loci', now: 0 });
    // Nineteen turns by Caroline, then one by Melanie at rank 20.
    const ids = [...Array.from({ length: 19 }, (_, i) => `c${i + 1}`), 'mel'];
    const byAuthor: Record<string, string> = Object.fromEntries(
      ids.map((id) => [id, id === 'mel' ? 'Melanie' : 'Caroline']),
    );
    const asked = 'What did Melanie paint?';
    const search = rankedSearch({ [asked]: ids }, byAuthor);
    const memories = await autoRecall({ agent, search, query: asked, queue: [] });
    // Coverage alone (× 1.15 for the name) would leave it below c6; with A21 (× 1.6) it leads
    // everything past the trigger's own five best hits, which keep their places (A26).
    expect(memories.map((m) => m.id).slice(0, 7)).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
      'c5',
      'mel',
      'c6',
    ]);
    const both = 'What did Caroline and Melanie paint?';
    const even = rankedSearch({ [both]: ids }, byAuthor);
    const unchanged = await autoRecall({ agent, search: even, query: both, queue: [] });
    expect(unchanged.map((m) => m.id)).toEqual(ids);
    // Whole words only: "Carolines" or "Mel" name no one.
    const messages = ['Caroline', 'Melanie'].map((author) => ({ author }) as Message);
    expect([...namedAuthors('Ask Carolines friend Mel', messages)]).toEqual([]);
    expect([...namedAuthors("Is caroline's art new?", messages)]).toEqual(['caroline']);
  });

  it("A26: the trigger's own five best hits lead the candidates, however far the lifts move the rest (ADR 0181)", async () => {
    const { agent } = createAgentRecord({ id: 'a', name: 'Loci', now: 0 });
    // The trigger's best hits are Caroline's; Melanie, whom the trigger names, wrote ranks 6–40.
    const ids = Array.from({ length: 40 }, (_, i) => `t${i + 1}`);
    const byAuthor: Record<string, string> = Object.fromEntries(
      ids.map((id, i) => [id, i < 5 ? 'Caroline' : 'Melanie']),
    );
    const asked = 'Why did Melanie start running?';
    const search = rankedSearch({ [asked]: ids }, byAuthor);
    const memories = await autoRecall({ agent, search, query: asked, queue: [] });
    const order = memories.map((m) => m.id);
    // A21 lifts every line by Melanie above Caroline's; A26 keeps the five best first.
    expect(order.slice(0, 5)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(order.slice(5, 8)).toEqual(['t6', 't7', 't8']);
    expect(order).toHaveLength(40);
  });

  it('A28: words the best hits share widen a lexical query that finds the turn the trigger does not name (ADR 0215)', async () => {
    const { agent } = createAgentRecord({ id: 'a', name: 'Loci', now: 0 });
    const question = 'When did Melanie go camping?';
    const texts = {
      c1: 'Camping by the lake was lovely, the campfire too.',
      c2: 'Our camping tent leaked, but the campfire kept us warm.',
      c3: 'Camping gear is on sale.',
      s1: 'We roasted marshmallows at the campfire last Sunday.',
    };
    // Feedback words are search terms (stemmed), as the index reads them.
    const widened = `${question} campfir`;
    const search = rankedSearch(
      { [question]: ['c1', 'c2', 'c3'], [widened]: ['c1', 's1'] },
      {},
      texts,
    );
    const memories = await autoRecall({ agent, search, query: question, queue: [] });
    // "campfire" is in two of the best hits; "lake", "tent" and "gear" in one each.
    expect(search.asked).toEqual([question, widened]);
    expect(search.modes).toEqual(['hybrid', 'lexical']);
    // The trigger's own hits keep the lead; the turn only the feedback found follows them.
    expect(memories.map((m) => m.id)).toEqual(['c1', 'c2', 'c3', 's1']);
    // Best hits that share nothing new ask no second query.
    const apart = rankedSearch({ [question]: ['c1', 'c3'] }, {}, texts);
    await autoRecall({ agent, search: apart, query: question, queue: [] });
    expect(apart.asked).toEqual([question]);
  });

  it('A11: the trigger is the query; archival hits land in the memories section', async () => {
    const fx = await seeded(true);
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hello' });
    const events: TurnEvent[] = [];
    const outcome = await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'What is my cat called?' },
      { onEvent: (e) => events.push(e) },
    );
    expect(outcome.replies).toEqual(['Miso!']);
    const query = fx.search.queries.at(-1);
    expect(query).toMatchObject({ kinds: ['message', 'passage'], mode: 'hybrid', page: 1 });
    expect(query?.text).toBe('What is my cat called?');
    const planned = events.find((e) => e.type === 'context.planned');
    expect(planned?.type === 'context.planned' && planned.plan.memories.map((m) => m.id)).toEqual([
      'p-cat',
    ]);
    expect(planned?.type === 'context.planned' && planned.plan.memories[0]?.text).toBe(
      '[p:p-cat] saved note: "The cat is called Miso."',
    );
  });

  it('A12: what is already in the prompt is excluded, and the section stays within recallBudget', async () => {
    const fx = await seeded(true);
    for (let i = 0; i < 30; i += 1)
      await runTurn(fx.deps, fx.agent.id, {
        type: 'user_message',
        text: `cat note ${i}: the cat sleeps a lot and likes the window seat`,
      });
    const before = await fx.store.queryMessages(fx.agent.id, { inContext: true });
    expect(before.length).toBeGreaterThan(3);
    const events: TurnEvent[] = [];
    await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Tell me about the cat' },
      { onEvent: (e) => events.push(e) },
    );
    const query = fx.search.queries.at(-1);
    for (const m of before) expect(query?.exclude).toContain(m.id);
    const planned = events.find((e) => e.type === 'context.planned');
    if (planned?.type !== 'context.planned') throw new Error('no plan');
    expect(planned.plan.sections.memories).toBeGreaterThan(0);
    expect(planned.plan.sections.memories).toBeLessThanOrEqual(fx.agent.budgets.recallBudget);
    for (const m of planned.plan.memories) expect(planned.plan.messageIds).not.toContain(m.id);
  });

  it('A44: a turn with a recall cap ("Fast replies") recalls no more than the cap, and the agent keeps its budget', async () => {
    const fx = await seeded(true);
    const planOf = async (text: string, recallCap?: number) => {
      const events: TurnEvent[] = [];
      await runTurn(
        fx.deps,
        fx.agent.id,
        { type: 'user_message', text },
        { onEvent: (e) => events.push(e), ...(recallCap !== undefined ? { recallCap } : {}) },
      );
      const planned = events.find((e) => e.type === 'context.planned');
      if (planned?.type !== 'context.planned') throw new Error('no plan');
      return planned.plan;
    };
    const thorough = await planOf('What is my cat called?');
    expect(thorough.memories.map((m) => m.id)).toContain('p-cat');
    const cap = thorough.sections.memories - 1;
    const fast = await planOf('What is my cat called, again?', cap);
    expect(fast.sections.memories).toBeLessThanOrEqual(cap);
    expect(fast.memories.map((m) => m.id)).not.toContain('p-cat');
    // Only that turn: the stored agent and the next turn are as before.
    expect((await fx.store.getAgent(fx.agent.id))?.budgets.recallBudget).toBe(
      fx.agent.budgets.recallBudget,
    );
    expect((await planOf('And the cat?')).memories.map((m) => m.id)).toContain('p-cat');
  });

  it('A12: switched off per agent, no recall query runs and the section is empty', async () => {
    const fx = await seeded(false);
    const outcome = await runTurn(fx.deps, fx.agent.id, {
      type: 'user_message',
      text: 'What is my cat called?',
    });
    expect(outcome.replies).toEqual(['Who?']);
    expect(fx.search.queries).toHaveLength(0);
  });
});

describe('agent records', () => {
  it('C13 A14: a new agent has 4k default budgets and persona + human blocks at version 1', () => {
    const { agent, changes } = createAgentRecord({ id: 'a', name: 'Ada', now: 5 });
    expect(agent.budgets).toEqual({
      replyReserve: 512,
      recallBudget: 614,
      warningFraction: 0.84,
      flushFraction: 1,
      targetFraction: 0.5,
      summaryMaxTokens: 256,
      maxSteps: 10,
      maxInvalidSteps: 3,
    });
    expect(agent).toMatchObject({ strategy: 'memgpt', autoRecall: true, createdAt: 5 });
    expect(
      changes.blocks?.map((w) => [
        w.block.label,
        w.block.charLimit,
        w.block.version,
        w.history.source.type,
      ]),
    ).toEqual([
      ['persona', 800, 1, 'system'],
      ['human', 800, 1, 'system'],
    ]);
    expect(changes.agents).toEqual([agent]);
  });
});

describe('automatic recall asks nothing for a greeting', () => {
  it('A27: "hello" or "thanks!" recalls nothing and runs no search; a question does', async () => {
    const { agent } = createAgentRecord({ id: 'a', name: 'Loci', now: 0 });
    const search = rankedSearch({ 'What is my cat called?': ['cat'] });
    for (const greeting of ['hello', 'Thanks!', 'ok, cool', '  ']) {
      expect(await autoRecall({ agent, search, query: greeting, queue: [] })).toEqual([]);
    }
    expect(search.asked).toEqual([]);
    const found = await autoRecall({ agent, search, query: 'What is my cat called?', queue: [] });
    expect(found.map((m) => m.id)).toEqual(['cat']);
  });
});
