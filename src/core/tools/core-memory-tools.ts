/**
 * `core_memory_append` and `core_memory_replace` (T5–T7): edits of a core block that respect
 * `readOnly` and `charLimit`, each a new version with a history row whose source names the
 * turn, step and tool. An edit that cannot apply is feedback, never a partial write.
 */
import type { BlockVersion, CoreBlock } from '../model';
import { blockLabelText } from '../prompts/block-label';
import { quoteInline } from '../text/inline-text';
import { TOOL_COPY } from '../prompts/tool-copy';
import type { Tool, ToolContext, ToolOutcome, ToolSpec } from './tool';

/** Passages a marked edit names (the newest reads). */
export const MARK_READS = 3;

function findBlock(context: ToolContext, label: string, tool: string): CoreBlock | string {
  const block = context.blocks.find((b) => b.label === label);
  // Labels are shown as the prompt shows them: a label from before the label rule quoted (X231).
  const labels = context.blocks.map((b) => blockLabelText(b.label)).join(', ');
  const asked = quoteInline(label);
  if (!block) return `There is no core block ${asked}; ${tool} works on: ${labels}.`;
  if (block.readOnly) {
    const editable = context.blocks.filter((b) => !b.readOnly).map((b) => blockLabelText(b.label));
    return `Block ${asked} is read-only; editable blocks: ${editable.join(', ') || 'none'}.`;
  }
  return block;
}

function write(context: ToolContext, block: CoreBlock, value: string, tool: string): ToolOutcome {
  const at = context.clock.now();
  const version = block.version + 1;
  const next: CoreBlock = { ...block, value, version, updatedAt: at };
  const history: BlockVersion = {
    agentId: block.agentId,
    label: block.label,
    version,
    value,
    source: {
      type: 'tool',
      turnId: context.turnId,
      step: context.step,
      tool,
      // Marked for review when the turn had read a document passage (C15).
      ...(context.untrusted?.length ? { after: context.untrusted.slice(0, MARK_READS) } : {}),
    },
    at,
  };
  return {
    type: 'ok',
    result: `Saved in ${quoteInline(block.label)} (${value.length}/${block.charLimit} chars).`,
    changes: { blocks: [{ block: next, history }] },
    memory: [{ type: 'core', label: block.label, version, value }],
  };
}

const labelParam = {
  name: 'label',
  type: 'string',
  required: true,
  description: 'block label',
} as const;

export const coreMemoryAppend: Tool = {
  spec: {
    name: 'core_memory_append',
    description: TOOL_COPY.core_memory_append.description,
    example: TOOL_COPY.core_memory_append.example,
    params: [
      labelParam,
      {
        name: 'content',
        type: 'string',
        required: true,
        description: TOOL_COPY.core_memory_append.params.content,
      },
    ],
  } satisfies ToolSpec,
  run(args, context) {
    const found = findBlock(context, String(args.label), 'core_memory_append');
    if (typeof found === 'string') return Promise.resolve({ type: 'invalid', feedback: found });
    const content = String(args.content).trim();
    const value = found.value === '' ? content : `${found.value}\n${content}`;
    if (value.length > found.charLimit) {
      return Promise.resolve({
        type: 'invalid',
        feedback: `Block ${quoteInline(found.label)} would be ${value.length}/${found.charLimit} chars; shorten the text, or condense the block with core_memory_replace first.`,
      });
    }
    return Promise.resolve(write(context, found, value, 'core_memory_append'));
  },
};

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length))
    n += 1;
  return n;
}

export const coreMemoryReplace: Tool = {
  spec: {
    name: 'core_memory_replace',
    description: TOOL_COPY.core_memory_replace.description,
    example: TOOL_COPY.core_memory_replace.example,
    avoid: TOOL_COPY.core_memory_replace.avoid,
    params: [
      labelParam,
      {
        name: 'old_content',
        type: 'string',
        required: true,
        description: TOOL_COPY.core_memory_replace.params.old_content,
      },
      {
        name: 'new_content',
        type: 'string',
        required: true,
        description: TOOL_COPY.core_memory_replace.params.new_content,
      },
    ],
  } satisfies ToolSpec,
  run(args, context) {
    const found = findBlock(context, String(args.label), 'core_memory_replace');
    if (typeof found === 'string') return Promise.resolve({ type: 'invalid', feedback: found });
    const old = String(args.old_content);
    const count = occurrences(found.value, old);
    if (count === 0) {
      return Promise.resolve({
        type: 'invalid',
        feedback: `old_content was not found in ${quoteInline(found.label)}; copy the exact text from the block.`,
      });
    }
    if (count > 1) {
      return Promise.resolve({
        type: 'invalid',
        feedback: `old_content appears ${count} times in ${quoteInline(found.label)}; include more surrounding text so it matches once.`,
      });
    }
    const value = found.value
      .replace(old, () => String(args.new_content))
      .replace(/\n{2,}/g, '\n')
      .trim();
    if (value.length > found.charLimit) {
      return Promise.resolve({
        type: 'invalid',
        feedback: `Block ${quoteInline(found.label)} would be ${value.length}/${found.charLimit} chars; make new_content shorter.`,
      });
    }
    return Promise.resolve(write(context, found, value, 'core_memory_replace'));
  },
};
