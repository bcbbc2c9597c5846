/**
 * The memory tools the model can call, by name (T1). The registry fills per-turn options
 * (the block labels) into the specs, so both the prompt's tools section and the step schema list
 * exactly what is valid now.
 */
import type { CoreBlock } from '../model';
import { archivalMemoryInsert, archivalMemorySearch } from './archival-tools';
import { coreMemoryAppend, coreMemoryReplace } from './core-memory-tools';
import { conversationSearch, conversationSearchDate } from './recall-tools';
import { sendMessage } from './send-message';
import type { Tool, ToolSpec } from './tool';

export interface ToolRegistry {
  readonly names: readonly string[];
  get(name: string): Tool | undefined;
  /** The specs with per-turn options filled in (editable block labels). */
  specs(blocks: readonly CoreBlock[]): ToolSpec[];
}

export const DEFAULT_TOOLS: readonly Tool[] = [
  sendMessage,
  coreMemoryAppend,
  coreMemoryReplace,
  conversationSearch,
  conversationSearchDate,
  archivalMemoryInsert,
  archivalMemorySearch,
];

export function createToolRegistry(tools: readonly Tool[] = DEFAULT_TOOLS): ToolRegistry {
  const byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  return {
    names: tools.map((tool) => tool.spec.name),
    get: (name) => byName.get(name),
    specs(blocks) {
      const labels = blocks.filter((b) => !b.readOnly).map((b) => b.label);
      return tools.map((tool) => ({
        ...tool.spec,
        params: tool.spec.params.map((p) =>
          p.name === 'label' && labels.length > 0 ? { ...p, options: labels } : p,
        ),
      }));
    },
  };
}
