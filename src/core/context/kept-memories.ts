/**
 * The memgpt strategy's persisted state under the kept-memories layout (C17, ADR 0102): for each
 * queued user message that had memories recalled for it, the lines merged into it, so every later
 * step renders that message exactly as it was first sent.
 */
import type { MessageId } from '../model';
import type { ContextMemory } from './strategy';

export interface KeptMemoriesState {
  kept: Record<MessageId, ContextMemory[]>;
}

function isMemory(value: unknown): value is ContextMemory {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<ContextMemory>;
  return typeof m.id === 'string' && typeof m.text === 'string' && typeof m.tokens === 'number';
}

/** The kept lines by message id; an empty record for a missing or malformed state. */
export function keptMemoriesOf(state: unknown): Record<MessageId, ContextMemory[]> {
  if (typeof state !== 'object' || state === null) return {};
  const kept = (state as { kept?: unknown }).kept;
  if (typeof kept !== 'object' || kept === null) return {};
  const out: Record<MessageId, ContextMemory[]> = {};
  for (const [id, lines] of Object.entries(kept as Record<string, unknown>)) {
    if (Array.isArray(lines) && lines.every(isMemory)) out[id as MessageId] = lines;
  }
  return out;
}
