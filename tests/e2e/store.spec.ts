import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { waitForLoci } from './helpers/loci';

interface StoreWindow {
  __loci: {
    store: {
      apply(changes: Record<string, unknown>): Promise<{ messages: { seq: number }[] }>;
      getAgent(id: string): Promise<{ name: string } | undefined>;
      queryMessages(agentId: string): Promise<{ text: string; seq: number }[]>;
      queryPassages(agentId: string): Promise<{ text: string; embedding: Float32Array | null }[]>;
    };
  };
}

const AGENT = 'persist-agent';

async function writeRecords(page: Page): Promise<number[]> {
  return page.evaluate(async (agentId) => {
    const { store } = (window as unknown as StoreWindow).__loci;
    const now = Date.now();
    await store.apply({
      agents: [
        {
          id: agentId,
          kind: 'companion',
          name: 'Persisted companion',
          persona: 'p',
          modelId: null,
          strategy: 'memgpt',
          autoRecall: true,
          budgets: {
            replyReserve: 512,
            recallBudget: 328,
            warningFraction: 0.7,
            flushFraction: 1,
            targetFraction: 0.5,
            summaryMaxTokens: 256,
            maxSteps: 10,
            maxInvalidSteps: 3,
          },
          forgetting: {
            recallThreshold: 0.9,
            forgetThreshold: 1.5,
            relevanceTarget: 0.6,
            maxGram: 3,
          },
          createdAt: now,
          updatedAt: now,
        },
      ],
    });
    const applied = await store.apply({
      messages: ['my birthday is in May', '我的生日是五月'].map((text, i) => ({
        id: `m-${i}`,
        agentId,
        role: 'user',
        text,
        at: now + i,
        inContext: true,
        tokens: 8,
      })),
      passages: [
        {
          id: 'p-1',
          agentId,
          text: 'Anna lives in Lisbon',
          source: { type: 'memory' },
          tags: [],
          at: now,
          embedding: new Float32Array([0.25, 0.5, 0.75]),
          embeddingModel: 'fixture',
          dimension: 3,
        },
      ],
    });
    return applied.messages.map((m) => m.seq);
  }, AGENT);
}

async function readRecords(page: Page) {
  return page.evaluate(async (agentId) => {
    const { store } = (window as unknown as StoreWindow).__loci;
    const agent = await store.getAgent(agentId);
    const messages = await store.queryMessages(agentId);
    const passages = await store.queryPassages(agentId);
    return {
      name: agent?.name,
      messages: messages.map((m) => `${m.seq}:${m.text}`),
      passages: passages.map((p) => ({
        text: p.text,
        isFloat32: p.embedding instanceof Float32Array,
        vector: p.embedding ? Array.from(p.embedding) : null,
      })),
    };
  }, AGENT);
}

test('S-persist: data written in one page load is there after a reload and in a second tab', async ({
  page,
  context,
  externalRequests,
}) => {
  await page.goto('/');
  await waitForLoci(page);
  const seqs = await writeRecords(page);
  expect(seqs).toEqual([1, 2]);

  const expected = {
    name: 'Persisted companion',
    messages: ['1:my birthday is in May', '2:我的生日是五月'],
    passages: [{ text: 'Anna lives in Lisbon', isFloat32: true, vector: [0.25, 0.5, 0.75] }],
  };

  await page.reload();
  await waitForLoci(page);
  expect(await readRecords(page)).toEqual(expected);

  const second = await context.newPage();
  await second.goto('/');
  await waitForLoci(second);
  expect(await readRecords(second)).toEqual(expected);

  // A write in the second tab continues the same per-agent sequence the first tab sees.
  const nextSeq = await second.evaluate(async (agentId) => {
    const { store } = (window as unknown as StoreWindow).__loci;
    const applied = await store.apply({
      messages: [
        {
          id: 'm-2',
          agentId,
          role: 'user',
          text: 'from tab two',
          at: Date.now(),
          inContext: true,
          tokens: 4,
        },
      ],
    });
    return applied.messages[0]?.seq;
  }, AGENT);
  expect(nextSeq).toBe(3);
  expect((await readRecords(page)).messages).toContain('3:from tab two');
  await second.close();
  expect(externalRequests).toEqual([]);
});
