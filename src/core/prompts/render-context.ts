/**
 * How each tier is written into the prompt: the tools list, core blocks (with
 * `chars_current`/`chars_limit`, Letta style), the recursive summary, the relevant-memories
 * section and each queued message. Product copy; `planContext` counts exactly these strings.
 */
import type { ContextMemory } from '../context/strategy';
import type { CoreBlock, Message, Summary } from '../model';
import type { ChatTurn } from '../ports/llm-engine';
import type { ToolSpec } from '../tools/tool';
import type { EpochMs } from '../units';
import { EVENT_LABEL } from './event-copy';

/** `2026-03-04 09:15 UTC`. */
export function formatTime(at: EpochMs): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2026-03-04`. */
export function formatDate(at: EpochMs): string {
  return new Date(at).toISOString().slice(0, 10);
}

export function renderToolsSection(tools: readonly ToolSpec[]): string {
  const lines = ['Tools — function(arguments): what it does. e.g. arguments:'];
  for (const tool of tools) {
    const params = tool.params.map((p) => (p.required ? p.name : `${p.name}?`)).join(', ');
    lines.push(
      `- ${tool.name}(${params}): ${tool.description}${tool.avoid ? ` ${tool.avoid}` : ''}`,
    );
    lines.push(`  ${tool.example}`);
  }
  return lines.join('\n');
}

export function renderCoreSection(blocks: readonly CoreBlock[]): string {
  const parts = ['Core memory:'];
  for (const block of blocks) {
    const ro = block.readOnly ? ' read_only="true"' : '';
    parts.push(
      `<${block.label} chars_current="${block.value.length}" chars_limit="${block.charLimit}"${ro}>`,
      block.description ? `(${block.description})` : '',
      block.value,
      `</${block.label}>`,
    );
  }
  return parts.filter((part) => part !== '').join('\n');
}

export function renderSummarySection(summary: Summary | undefined): string {
  if (!summary || summary.text.trim() === '') return '';
  return `Summary of earlier conversation (messages ${summary.fromSeq}–${summary.toSeq}, searchable in recall):\n${summary.text}`;
}

export function renderMemoriesSection(memories: readonly ContextMemory[]): string {
  if (memories.length === 0) return '';
  return [
    'Relevant memories (retrieved automatically):',
    ...memories.map((m) => `- ${m.text}`),
  ].join('\n');
}

/** One line of the relevant-memories section for a recall message: its date and its author (or role). */
export function renderRecallMemory(message: Message): string {
  return `[recall ${formatDate(message.at)} ${message.author ?? message.role}] ${message.text}`;
}

/** One line of the relevant-memories section for an archival passage. */
export function renderArchivalMemory(id: string, text: string): string {
  return `[p:${id}] ${text}`;
}

/**
 * One queued message as the model sees it. Steps the model took are shown as their compact
 * call (no `thinking`, to save tokens); tool results, alerts and events go in as `user` turns
 * because chat templates (and web-llm) accept only system/user/assistant.
 */
export function renderMessage(message: Message): ChatTurn {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.toolCall
          ? JSON.stringify({
              function: message.toolCall.name,
              arguments: message.toolCall.arguments,
            })
          : message.text,
      };
    case 'tool':
      return {
        role: 'user',
        content: `[result of ${message.toolCall?.name ?? 'tool'}] ${message.toolResult ?? message.text}`,
      };
    case 'system':
    case 'event': {
      const label = EVENT_LABEL[message.speaker ?? ''] ?? 'event';
      return { role: 'user', content: `[${label} ${formatTime(message.at)}] ${message.text}` };
    }
  }
}
