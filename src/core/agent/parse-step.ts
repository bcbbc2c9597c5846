/**
 * Parses and validates one model step (A2). Everything the model can get wrong — not JSON, no
 * or unknown `function`, bad arguments — becomes one sentence of feedback it can act on (lane 2).
 */
import type { Tool, ToolSpec } from '../tools/tool';
import type { ToolRegistry } from '../tools/tool-registry';
import { validateArgs } from '../tools/validate-args';

export type ParsedStep =
  | {
      type: 'call';
      tool: Tool;
      name: string;
      arguments: Record<string, unknown>;
      thinking?: string;
      heartbeat: boolean;
    }
  | { type: 'invalid'; feedback: string; name?: string; thinking?: string; heartbeat: boolean };

const SHAPE =
  '{"thinking": "...", "function": "send_message", "arguments": {"message": "..."}, "request_heartbeat": false}';

/** The JSON object in a model's output: the whole text, or the span from the first `{` to the last `}` (models add fences). */
function extractJson(raw: string): string {
  const text = raw.trim();
  if (text.startsWith('{')) return text;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : text;
}

function heartbeatOf(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Parses one raw model step into a validated call, or one sentence of feedback (A2). */
export function parseStep(
  raw: string,
  registry: ToolRegistry,
  specs: readonly ToolSpec[],
): ParsedStep {
  let value: unknown;
  try {
    value = JSON.parse(extractJson(raw));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      type: 'invalid',
      heartbeat: true,
      feedback: `Your step was not valid JSON (${reason}); reply with exactly one JSON object like ${SHAPE}.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      type: 'invalid',
      heartbeat: true,
      feedback: `Your step must be one JSON object like ${SHAPE}.`,
    };
  }
  const step = value as Record<string, unknown>;
  const thinking = typeof step.thinking === 'string' ? step.thinking : undefined;
  const heartbeat = heartbeatOf(step.request_heartbeat);
  const name = step.function;
  const names = registry.names.join(', ');
  if (typeof name !== 'string' || name === '') {
    return {
      type: 'invalid',
      thinking,
      heartbeat,
      feedback: `Your step has no "function"; use one of: ${names}.`,
    };
  }
  const tool = registry.get(name);
  const spec = specs.find((s) => s.name === name);
  if (!tool || !spec) {
    return {
      type: 'invalid',
      name,
      thinking,
      heartbeat,
      feedback: `There is no function "${name}"; use one of: ${names}.`,
    };
  }
  const args = validateArgs(spec, step.arguments ?? {});
  if (!args.ok) return { type: 'invalid', name, thinking, heartbeat, feedback: args.error };
  return { type: 'call', tool, name, arguments: args.value, thinking, heartbeat };
}
