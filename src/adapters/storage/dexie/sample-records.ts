/**
 * Small builders of valid records, for tests and benchmarks of the store, search and backup.
 * Not used by the app.
 */
import type { Agent, CoreBlock, BlockVersion, Passage, DocumentMeta } from '../../../core/model';
import type { NewMessage } from '../../../core/ports/memory-store';

export function sampleAgent(id: string, at = 1_700_000_000_000): Agent {
  return {
    id,
    kind: 'companion',
    name: `Agent ${id}`,
    persona: 'A kind companion.',
    modelId: null,
    strategy: 'memgpt',
    autoRecall: true,
    budgets: {
      replyReserve: 512,
      recallBudget: 400,
      warningFraction: 0.7,
      flushFraction: 1,
      targetFraction: 0.5,
      summaryMaxTokens: 300,
      maxSteps: 6,
      maxInvalidSteps: 2,
    },
    forgetting: { recallThreshold: 0.3, forgetThreshold: 0.8, relevanceTarget: 0.5, maxGram: 3 },
    createdAt: at,
    updatedAt: at,
  };
}

export function sampleBlock(
  agentId: string,
  label: string,
  value: string,
  version = 1,
  at = 1_700_000_000_000,
): {
  block: CoreBlock;
  history: BlockVersion;
} {
  return {
    block: {
      agentId,
      label,
      description: `The ${label} block.`,
      value,
      charLimit: 2000,
      readOnly: false,
      updatedAt: at,
      version,
    },
    history: { agentId, label, version, value, source: { type: 'user' }, at },
  };
}

export function sampleMessage(
  agentId: string,
  id: string,
  text: string,
  at: number,
  role: NewMessage['role'] = 'user',
): NewMessage {
  return { id, agentId, role, text, at, inContext: true, tokens: Math.ceil(text.length / 3) };
}

export function samplePassage(
  agentId: string,
  id: string,
  text: string,
  at: number,
  embedding: Float32Array | null = null,
  source: Passage['source'] = { type: 'memory' },
): Passage {
  return {
    id,
    agentId,
    text,
    source,
    tags: [],
    at,
    embedding,
    embeddingModel: embedding ? 'test-model' : null,
    dimension: embedding ? embedding.length : 0,
  };
}

export function sampleDocument(agentId: string, id: string, at = 1_700_000_000_000): DocumentMeta {
  return {
    id,
    agentId,
    title: `Doc ${id}`,
    mimeType: 'text/plain',
    bytes: 120,
    contentHash: `hash-${id}`,
    status: 'indexed',
    passages: 2,
    embedded: 2,
    at,
  };
}
