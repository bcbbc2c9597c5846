/**
 * The JSON schema of one model step, generated from the tool registry (A1): an `anyOf` of one
 * object per tool, each with `function` as a `const`, so web-llm's grammar mode (XGrammar) can
 * only produce a known tool with its own arguments. Deliberately simple: no `$ref`, no
 * `pattern`, no `oneOf` — the subset grammar engines compile reliably.
 */
import type { JsonSchema } from '../ports/llm-engine';
import type { ParamSpec, ToolSpec } from '../tools/tool';

function paramSchema(param: ParamSpec): JsonSchema {
  if (param.type === 'integer') {
    return param.minimum === undefined
      ? { type: 'integer' }
      : { type: 'integer', minimum: param.minimum };
  }
  return param.options ? { type: 'string', enum: [...param.options] } : { type: 'string' };
}

/** One step: `{ thinking, function, arguments, request_heartbeat }`, per tool. */
export function buildStepSchema(tools: readonly ToolSpec[]): JsonSchema {
  return {
    anyOf: tools.map((tool) => ({
      type: 'object',
      properties: {
        thinking: { type: 'string' },
        function: { const: tool.name },
        arguments: {
          type: 'object',
          properties: Object.fromEntries(tool.params.map((p) => [p.name, paramSchema(p)])),
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
