/**
 * Works out what changed between two looks at an agent's memory (live queries + the last plan),
 * so the memory panel can highlight it (U59) even when no loop event says so — a write from
 * another tab or a worker arrives only through the live query.
 */
import type { TurnEvent } from '../../core/agent/turn-events';
import { highlightKey } from './highlights.svelte';

/** The parts of the memory whose changes are worth a highlight. */
export interface MemorySnapshot {
  /** Core block label → version. */
  blocks: ReadonlyMap<string, number>;
  /** Ids of the in-context messages (the FIFO queue), oldest first. */
  queue: readonly string[];
  /** Version of the latest summary, 0 when there is none. */
  summaryVersion: number;
  /** Ids of the memories the last plan placed in the prompt (paged in by recall). */
  memories: readonly string[];
}

export interface MemoryChange {
  keys: string[];
  /** One sentence for a live region. */
  note: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The changes from `before` to `after`; none when `before` is null (first load lights nothing). */
export function memoryChanges(
  before: MemorySnapshot | null,
  after: MemorySnapshot,
): MemoryChange[] {
  if (before === null) return [];
  const changes: MemoryChange[] = [];

  for (const [label, version] of after.blocks) {
    const old = before.blocks.get(label);
    if (old === undefined) {
      changes.push({ keys: [highlightKey.block(label)], note: `Core block “${label}” was added.` });
    } else if (version !== old) {
      changes.push({ keys: [highlightKey.block(label)], note: `Core block “${label}” changed.` });
    }
  }

  const nowQueued = new Set(after.queue);
  const wasQueued = new Set(before.queue);
  const evicted = before.queue.filter((id) => !nowQueued.has(id));
  const added = after.queue.filter((id) => !wasQueued.has(id));
  if (evicted.length > 0) {
    changes.push({
      keys: [highlightKey.queue()],
      note: `${plural(evicted.length, 'message', 'messages')} left the context for recall storage.`,
    });
  }
  if (added.length > 0) {
    changes.push({
      keys: added.map(highlightKey.message),
      note: `${plural(added.length, 'message', 'messages')} joined the context.`,
    });
  }

  if (after.summaryVersion > before.summaryVersion) {
    changes.push({
      keys: [highlightKey.summary()],
      note: `The recursive summary was rewritten (version ${after.summaryVersion}).`,
    });
  }

  const hadMemory = new Set(before.memories);
  const pagedIn = after.memories.filter((id) => !hadMemory.has(id));
  if (pagedIn.length > 0) {
    changes.push({
      keys: pagedIn.map(highlightKey.memory),
      note: `${plural(pagedIn.length, 'memory was', 'memories were')} paged into the context.`,
    });
  }
  return changes;
}

/**
 * What a loop event says changed: a core block, an archival passage, or the summary and the queue
 * after a flush. Other events change nothing the panel highlights from here.
 */
export function eventChanges(event: TurnEvent): MemoryChange[] {
  switch (event.type) {
    case 'memory.changed':
      return event.changes.map((change) =>
        change.type === 'core'
          ? {
              keys: [highlightKey.block(change.label)],
              note: `Core block “${change.label}” changed.`,
            }
          : {
              keys: [highlightKey.passage(change.passageId)],
              note: 'A memory was saved to archival storage.',
            },
      );
    case 'summary.created':
      return [
        {
          keys: [highlightKey.summary(), highlightKey.queue()],
          note: `${event.evictedIds.length} messages moved to recall storage and the summary was rewritten.`,
        },
      ];
    default:
      return [];
  }
}
