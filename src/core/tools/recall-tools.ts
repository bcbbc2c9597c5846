/** `conversation_search` and `conversation_search_date` over recall storage (T8, T9). */
import { conversationNamer } from '../prompts/render-context';
import { defaultConversationId } from '../model';
import { TOOL_COPY } from '../prompts/tool-copy';
import { formatPage } from './format-page';
import type { Tool, ToolContext } from './tool';
import { parseDay } from './validate-args';

/** Results per page of the recall tools (Letta uses 5). */
export const RECALL_PAGE_SIZE = 5;
const DAY_MS = 86_400_000;

/**
 * Recall searches every conversation of the agent; with more than one, each hit says where it
 * was said (A23).
 */
async function hitConversation(context: ToolContext) {
  const list = await context.store.listConversations(context.agent.id);
  return conversationNamer(list, context.conversationId ?? defaultConversationId(context.agent.id));
}

const pageParam = {
  name: 'page',
  type: 'integer',
  required: false,
  minimum: 1,
  description: 'page number, from 1',
} as const;

export const conversationSearch: Tool = {
  spec: {
    name: 'conversation_search',
    description: TOOL_COPY.conversation_search.description,
    example: TOOL_COPY.conversation_search.example,
    params: [
      {
        name: 'query',
        type: 'string',
        required: true,
        description: TOOL_COPY.conversation_search.params.query,
      },
      pageParam,
    ],
  },
  async run(args, context) {
    const query = String(args.query);
    const page = await context.search.search({
      agentId: context.agent.id,
      text: query,
      kinds: ['message'],
      mode: 'hybrid',
      page: Number(args.page),
      pageSize: RECALL_PAGE_SIZE,
      roles: ['user', 'assistant'],
    });
    return {
      type: 'ok',
      result: formatPage(page, `"${query}"`, await hitConversation(context)),
    };
  },
};

export const conversationSearchDate: Tool = {
  spec: {
    name: 'conversation_search_date',
    description: TOOL_COPY.conversation_search_date.description,
    example: TOOL_COPY.conversation_search_date.example,
    params: [
      {
        name: 'start',
        type: 'string',
        required: true,
        format: 'date',
        description: TOOL_COPY.conversation_search_date.params.start,
      },
      {
        name: 'end',
        type: 'string',
        required: true,
        format: 'date',
        description: TOOL_COPY.conversation_search_date.params.end,
      },
      pageParam,
    ],
  },
  async run(args, context) {
    const from = parseDay(String(args.start)) as number;
    const to = (parseDay(String(args.end)) as number) + DAY_MS - 1;
    if (from > to) {
      return {
        type: 'invalid',
        feedback: `start ${String(args.start)} is after end ${String(args.end)}; swap them.`,
      };
    }
    const page = await context.search.searchByDate(
      context.agent.id,
      from,
      to,
      Number(args.page),
      RECALL_PAGE_SIZE,
    );
    return {
      type: 'ok',
      result: formatPage(
        page,
        `${String(args.start)} to ${String(args.end)}`,
        await hitConversation(context),
      ),
    };
  },
};
