/**
 * The JSON schema of one model step, generated from the tool registry (A1): an `anyOf` of one
 * object per tool, each with `function` as a `const`, so web-llm's grammar mode (XGrammar) can
 * only produce a known tool with its own arguments. Deliberately simple: no `$ref`, no
 * `pattern`, no `oneOf` — the subset grammar engines compile reliably.
 */
import type { JsonSchema } from '../ports/llm-engine';
import type { ParamSpec, ToolSpec } from '../tools/tool';
import type { Chars, Tokens } from '../units';

/**
 * Longest `thinking` and longest string argument without a limit of its own (E51). Every string
 * in a step is bounded, so a model that never closes a string (a small one rambling, or the
 * random test model) still ends its step: the longest step is `thinking` plus one tool's strings
 * (at most 2,200 characters, an archival passage), which a 4k model's 512-token reserve holds for
 * ordinary text (~4 characters a token) and the random fixture's 1,024 at its 8k window.
 */
export const THINKING_MAX_CHARS: Chars = 200;
export const STRING_ARG_MAX_CHARS: Chars = 400;

/**
 * Characters of reply per token of reserve the grammar allows. Ordinary prose is ~4 characters a
 * token; 2.5 leaves room for the JSON around the reply and for text that tokenizes worse, so a
 * model that never closes its string is closed by the grammar before `max_tokens` cuts it off.
 */
const REPLY_CHARS_PER_TOKEN = 2.5;
/** The shortest reply bound, whatever the reserve: a few paragraphs. */
const REPLY_MIN_CHARS: Chars = 800;

/** Longest reply (`send_message`) a reserve of `replyReserve` tokens holds, after `thinking`. */
export function replyMaxChars(replyReserve: Tokens): Chars {
  const room = Math.floor(replyReserve * REPLY_CHARS_PER_TOKEN) - THINKING_MAX_CHARS;
  return Math.max(REPLY_MIN_CHARS, room);
}

function paramSchema(param: ParamSpec, replyReserve: Tokens): JsonSchema {
  if (param.type === 'integer') {
    return param.minimum === undefined
      ? { type: 'integer' }
      : { type: 'integer', minimum: param.minimum };
  }
  return param.options
    ? { type: 'string', enum: [...param.options] }
    : { type: 'string', maxLength: stringBound(param, replyReserve) };
}

function stringBound(param: ParamSpec, replyReserve: Tokens): Chars {
  if (param.fillsReserve) return replyMaxChars(replyReserve);
  return param.maxLength ?? STRING_ARG_MAX_CHARS;
}

/**
 * One step: `{ thinking, function, arguments, request_heartbeat }`, per tool. `replyReserve` is
 * the turn's `max_tokens`; the reply's bound grows with it.
 */
export function buildStepSchema(tools: readonly ToolSpec[], replyReserve: Tokens): JsonSchema {
  return {
    anyOf: tools.map((tool) => ({
      type: 'object',
      properties: {
        thinking: { type: 'string', maxLength: THINKING_MAX_CHARS },
        function: { const: tool.name },
        arguments: {
          type: 'object',
          properties: Object.fromEntries(
            tool.params.map((p) => [p.name, paramSchema(p, replyReserve)]),
          ),
          required: tool.params.filter((p) => p.required).map((p) => p.name),
          additionalProperties: false,
        },
        request_heartbeat: { type: 'boolean' },
      },
      required: ['thinking', 'function', 'arguments', 'request_heartbeat'],
      additionalProperties: false,
    })),
  };
}
