/**
 * Descriptions and examples of the memory tools: product copy, in one place. Each description is
 * one or two sentences (the tools section costs tokens in every prompt); each example is one
 * `arguments` object — the step's full shape is shown once in the instructions and enforced by
 * the step schema. Tool names are prompt tokens:
 * never rename them casually.
 */
export interface ToolCopy {
  description: string;
  /** One valid `arguments` object (the step's full shape is shown once, in the instructions). */
  example: string;
  /** Where models go wrong, when they do (Letta `memory_replace` style). */
  avoid?: string;
  params: Record<string, string>;
}

export const TOOL_COPY = {
  send_message: {
    description: 'Send a message to the user. This is the only way the user sees your words.',
    example: '{"message":"Good morning, Ana!"}',
    params: { message: 'the text the user will read' },
  },
  core_memory_append: {
    description: 'Add a line to a core memory block (always visible to you).',
    example: '{"label":"human","content":"Has a cat named Miso."}',
    params: { label: 'block label', content: 'text to add' },
  },
  core_memory_replace: {
    description:
      'Replace exact text in a core memory block; an empty new_content deletes it. old_content must appear exactly once.',
    example: '{"label":"human","old_content":"Lives in Lyon.","new_content":"Lives in Porto."}',
    avoid: 'Copy old_content from the block; do not paraphrase it.',
    params: {
      label: 'block label',
      old_content: 'exact text to replace',
      new_content: 'replacement',
    },
  },
  conversation_search: {
    description:
      'Search all past messages (recall memory) by words and meaning; 5 results per page.',
    example: '{"query":"trip to Kyoto","page":1}',
    params: { query: 'what to look for', page: 'page number, from 1' },
  },
  conversation_search_date: {
    description: 'List past messages between two dates (YYYY-MM-DD, inclusive); 5 per page.',
    example: '{"start":"2026-03-02","end":"2026-03-08","page":1}',
    params: {
      start: 'first day, YYYY-MM-DD',
      end: 'last day, YYYY-MM-DD',
      page: 'page number, from 1',
    },
  },
  archival_memory_insert: {
    description: 'Save a note to archival memory (long-term, searchable, not always visible).',
    example: '{"content":"Ana\'s lentil soup: lentils, cumin, lemon."}',
    params: { content: 'the note, self-contained' },
  },
  archival_memory_search: {
    description:
      'Search archival memory (notes and documents) by words and meaning; 5 results per page.',
    example: '{"query":"lentil soup recipe","page":1}',
    params: { query: 'what to look for', page: 'page number, from 1' },
  },
} satisfies Record<string, ToolCopy>;

export type ToolName = keyof typeof TOOL_COPY;
