import { describe, expect, it } from 'vitest';
import { createAgentFixture } from '../../testing/agent-fixture';
import type { Message } from '../model';
import type { ToolContext } from './tool';
import { createToolRegistry } from './tool-registry';
import { validateArgs } from './validate-args';

const registry = createToolRegistry();

async function context(human = ''): Promise<ToolContext> {
  const fx = await createAgentFixture({ human });
  return {
    agent: fx.agent,
    blocks: await fx.store.listBlocks(fx.agent.id),
    store: fx.store,
    search: fx.search,
    clock: fx.clock,
    ids: fx.ids,
    turnId: 'turn-9',
    step: 2,
  };
}

async function call(ctx: ToolContext, name: string, args: Record<string, unknown>) {
  const tool = registry.get(name);
  const spec = registry.specs(ctx.blocks).find((s) => s.name === name);
  if (!tool || !spec) throw new Error(name);
  const valid = validateArgs(spec, args);
  if (!valid.ok) return { type: 'invalid' as const, feedback: valid.error };
  return tool.run(valid.value, ctx);
}

describe('memory tools', () => {
  it('T1: the registry has exactly the seven fixed tool names', () => {
    expect(registry.names).toEqual([
      'send_message',
      'core_memory_append',
      'core_memory_replace',
      'conversation_search',
      'conversation_search_date',
      'archival_memory_insert',
      'archival_memory_search',
    ]);
  });

  it('T2: invalid arguments get one sentence naming the valid options', async () => {
    const ctx = await context();
    expect(await call(ctx, 'core_memory_append', { label: 'user', content: 'x' })).toEqual({
      type: 'invalid',
      feedback: '`label` of core_memory_append must be one of: persona, human (got "user").',
    });
    const extra = await call(ctx, 'conversation_search', { query: 'x', limit: 3 });
    expect(extra).toMatchObject({
      feedback: 'conversation_search has no argument `limit`; valid: query, page.',
    });
    const missing = await call(ctx, 'archival_memory_insert', {});
    expect(missing).toMatchObject({ feedback: expect.stringContaining('needs `content`') });
    const page = await call(ctx, 'conversation_search', { query: 'x', page: 0 });
    expect(page).toMatchObject({ feedback: expect.stringContaining('at least 1') });
    const date = await call(ctx, 'conversation_search_date', {
      start: '2026-02-30',
      end: '2026-03-01',
    });
    expect(date).toMatchObject({ feedback: expect.stringContaining('YYYY-MM-DD') });
  });

  it('T5 T6: append respects charLimit and writes a version with tool provenance', async () => {
    const ctx = await context('Name: Ana.');
    const ok = await call(ctx, 'core_memory_append', { label: 'human', content: 'Cat: Miso.' });
    expect(ok.type).toBe('ok');
    if (ok.type !== 'ok') return;
    const write = ok.changes?.blocks?.[0];
    expect(write?.block.value).toBe('Name: Ana.\nCat: Miso.');
    expect(write?.block.version).toBe(2);
    expect(write?.history.source).toEqual({
      type: 'tool',
      turnId: 'turn-9',
      step: 2,
      tool: 'core_memory_append',
    });
    const big = await call(ctx, 'core_memory_append', { label: 'human', content: 'x'.repeat(800) });
    expect(big).toMatchObject({
      type: 'invalid',
      feedback: expect.stringContaining('would be 811/800 chars'),
    });
  });

  it('T6: a read-only block is never edited', async () => {
    const ctx = await context();
    ctx.blocks = ctx.blocks.map((b) => (b.label === 'persona' ? { ...b, readOnly: true } : b));
    const result = await call(ctx, 'core_memory_append', { label: 'persona', content: 'x' });
    expect(result).toMatchObject({
      type: 'invalid',
      feedback: expect.stringContaining('must be one of: human'),
    });
    const direct = await registry
      .get('core_memory_replace')
      ?.run({ label: 'persona', old_content: 'I', new_content: 'x' }, ctx);
    expect(direct).toMatchObject({
      type: 'invalid',
      feedback: 'Block "persona" is read-only; editable blocks: human.',
    });
  });

  it('T7: replace needs exactly one match, and says how many there were', async () => {
    const ctx = await context('Likes tea. Likes tea.\nLives in Lyon.');
    expect(
      await call(ctx, 'core_memory_replace', {
        label: 'human',
        old_content: 'Likes tea.',
        new_content: '',
      }),
    ).toMatchObject({
      feedback:
        'old_content appears 2 times in "human"; include more surrounding text so it matches once.',
    });
    expect(
      await call(ctx, 'core_memory_replace', {
        label: 'human',
        old_content: 'Paris',
        new_content: 'x',
      }),
    ).toMatchObject({
      feedback: expect.stringContaining('was not found'),
    });
    const moved = await call(ctx, 'core_memory_replace', {
      label: 'human',
      old_content: 'Lives in Lyon.',
      new_content: 'Lives in Porto.',
    });
    expect(moved.type === 'ok' && moved.changes?.blocks?.[0]?.block.value).toBe(
      'Likes tea. Likes tea.\nLives in Porto.',
    );
  });

  it('T4 T8: conversation_search pages with totals ("results 6–10 of 37")', async () => {
    const ctx = await context();
    const messages: Message[] = Array.from({ length: 37 }, (_, i) => ({
      id: `m${i}`,
      agentId: ctx.agent.id,
      seq: i + 1,
      role: 'user',
      text: `garden note ${i}`,
      at: Date.UTC(2026, 0, 1) + i * 60_000,
      inContext: false,
      tokens: 5,
    }));
    await ctx.search.indexMessages(messages);
    const page2 = await call(ctx, 'conversation_search', { query: 'garden', page: 2 });
    expect(page2.type === 'ok' && page2.result.split('\n')[0]).toBe(
      'results 6–10 of 37 (page 2 of 8) for "garden": Next: page 3.',
    );
    const beyond = await call(ctx, 'conversation_search', { query: 'garden', page: 9 });
    expect(beyond.type === 'ok' && beyond.result).toBe(
      'Page 9 is empty: 37 results for "garden" fill 8 pages.',
    );
    const none = await call(ctx, 'conversation_search', { query: 'piano' });
    expect(none.type === 'ok' && none.result).toBe('No results for "piano".');
  });

  it('T9: conversation_search_date takes inclusive UTC days and rejects a reversed range', async () => {
    const ctx = await context();
    await ctx.search.indexMessages([
      {
        id: 'a',
        agentId: ctx.agent.id,
        seq: 1,
        role: 'user',
        text: 'on the 3rd',
        at: Date.UTC(2026, 2, 3, 23, 59),
        inContext: false,
        tokens: 1,
      },
      {
        id: 'b',
        agentId: ctx.agent.id,
        seq: 2,
        role: 'user',
        text: 'on the 4th',
        at: Date.UTC(2026, 2, 4, 0, 1),
        inContext: false,
        tokens: 1,
      },
    ]);
    const one = await call(ctx, 'conversation_search_date', {
      start: '2026-03-03',
      end: '2026-03-03',
    });
    expect(one.type === 'ok' && one.result).toContain('results 1–1 of 1');
    expect(one.type === 'ok' && one.result).toContain('on the 3rd');
    const reversed = await call(ctx, 'conversation_search_date', {
      start: '2026-03-05',
      end: '2026-03-01',
    });
    expect(reversed).toMatchObject({
      type: 'invalid',
      feedback: 'start 2026-03-05 is after end 2026-03-01; swap them.',
    });
  });

  it('T10 T11: archival insert returns a passage to commit; search lists ids to cite', async () => {
    const ctx = await context();
    const saved = await call(ctx, 'archival_memory_insert', { content: 'The boat is blue.' });
    expect(saved.type).toBe('ok');
    if (saved.type !== 'ok') return;
    const passage = saved.changes?.passages?.[0];
    expect(passage).toMatchObject({
      text: 'The boat is blue.',
      source: { type: 'memory', turnId: 'turn-9' },
    });
    await ctx.search.indexPassages(saved.changes?.passages ?? []);
    const found = await call(ctx, 'archival_memory_search', { query: 'boat', page: '1' });
    expect(found.type === 'ok' && found.result).toContain(
      `[p:${passage?.id}] saved note: "The boat is blue."`,
    );
  });

  it('T3: send_message returns the reply text', async () => {
    const ctx = await context();
    expect(await call(ctx, 'send_message', { message: ' Hello ' })).toEqual({
      type: 'ok',
      result: 'Sent.',
      reply: 'Hello',
    });
  });
});
