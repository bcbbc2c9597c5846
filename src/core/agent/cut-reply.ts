/**
 * A reply cut off at the step's length limit, kept as the reply (A40): the `send_message` text
 * streamed so far becomes the step's call, as if the model had closed its JSON there, and the turn
 * ends on it (no heartbeat) so the user reads it and may ask to Continue (A41). The user never
 * loses text they were reading because the step ran out of tokens.
 */
import type { CompletionResult } from '../ports/llm-engine';
import type { ToolSpec } from '../tools/tool';
import type { ToolRegistry } from '../tools/tool-registry';
import { validateArgs } from '../tools/validate-args';
import type { ParsedStep } from './parse-step';

/**
 * The cut `send_message` call of a step that ended at `max_tokens`, or null when the step did not
 * end there, streamed no reply text, or the reply tool is not offered.
 */
export function cutReply(
  finishReason: CompletionResult['finishReason'],
  streamed: string | null,
  registry: ToolRegistry,
  specs: readonly ToolSpec[],
): ParsedStep | null {
  if (finishReason !== 'length' || streamed === null || streamed.trim() === '') return null;
  const tool = registry.get('send_message');
  const spec = specs.find((s) => s.name === 'send_message');
  if (!tool || !spec) return null;
  const args = validateArgs(spec, { message: streamed });
  if (!args.ok) return null;
  return { type: 'call', tool, name: 'send_message', arguments: args.value, heartbeat: false };
}
