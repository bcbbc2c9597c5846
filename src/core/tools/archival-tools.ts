/** `archival_memory_insert` and `archival_memory_search` over archival storage (T10, T11). */
import type { Passage, UntrustedRead } from '../model';
import type { SearchHit } from '../ports/memory-search';
import { TOOL_COPY } from '../prompts/tool-copy';
import type { Chars } from '../units';
import { formatPage } from './format-page';
import type { Tool, ToolContext } from './tool';

/** Results per page of `archival_memory_search` (Letta uses 10; 5 suits a 4k window). */
export const ARCHIVAL_PAGE_SIZE = 5;
/** Longest note the model may insert at once. */
export const ARCHIVAL_MAX_CHARS: Chars = 2000;

export const archivalMemoryInsert: Tool = {
  spec: {
    name: 'archival_memory_insert',
    description: TOOL_COPY.archival_memory_insert.description,
    example: TOOL_COPY.archival_memory_insert.example,
    params: [
      {
        name: 'content',
        type: 'string',
        required: true,
        maxLength: ARCHIVAL_MAX_CHARS,
        description: TOOL_COPY.archival_memory_insert.params.content,
      },
    ],
  },
  run(args, context) {
    const passage: Passage = {
      id: context.ids.next('passage'),
      agentId: context.agent.id,
      text: String(args.content).trim(),
      source: { type: 'memory', turnId: context.turnId },
      tags: [],
      at: context.clock.now(),
      embedding: null,
      embeddingModel: null,
      dimension: 0,
    };
    return Promise.resolve({
      type: 'ok',
      result: `Saved to archival memory as [p:${passage.id}].`,
      changes: { passages: [passage] },
      memory: [{ type: 'archival', passageId: passage.id, text: passage.text }],
    });
  },
};

/** The document passages among `hits`, with their documents' titles (C15). */
export async function documentReads(
  hits: readonly SearchHit[],
  context: Pick<ToolContext, 'store'>,
): Promise<UntrustedRead[]> {
  const reads: UntrustedRead[] = [];
  for (const hit of hits) {
    const source = hit.passage?.source;
    if (source?.type !== 'document') continue;
    const title = (await context.store.getDocument(source.documentId))?.title ?? 'a document';
    reads.push({ passageId: hit.id, documentId: source.documentId, title, chunk: source.chunk });
  }
  return reads;
}

export const archivalMemorySearch: Tool = {
  spec: {
    name: 'archival_memory_search',
    description: TOOL_COPY.archival_memory_search.description,
    example: TOOL_COPY.archival_memory_search.example,
    params: [
      {
        name: 'query',
        type: 'string',
        required: true,
        description: TOOL_COPY.archival_memory_search.params.query,
      },
      {
        name: 'page',
        type: 'integer',
        required: false,
        minimum: 1,
        description: 'page number, from 1',
      },
    ],
  },
  async run(args, context) {
    const query = String(args.query);
    const page = await context.search.search({
      agentId: context.agent.id,
      text: query,
      kinds: ['passage'],
      mode: 'hybrid',
      page: Number(args.page),
      pageSize: ARCHIVAL_PAGE_SIZE,
    });
    return {
      type: 'ok',
      result: formatPage(page, `"${query}"`),
      read: await documentReads(page.hits, context),
    };
  },
};
