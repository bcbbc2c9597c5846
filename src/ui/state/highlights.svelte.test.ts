import { describe, expect, it } from 'vitest';
import { Highlights, highlightKey, type HighlightTimer } from './highlights.svelte';
import type { TurnEvent } from '../../core/agent/turn-events';
import { eventChanges, memoryChanges, type MemorySnapshot } from './memory-changes';

/** A hand-driven clock: `advance(ms)` runs what is due. */
function manualTimer() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const timer: HighlightTimer = {
    set: (run, ms) => {
      const id = ++next;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clear: (handle) => {
      due.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, job] of [...due]) {
      if (job.at <= now) {
        due.delete(id);
        job.run();
      }
    }
  };
  return { timer, advance, pending: () => due.size };
}

describe('Highlights', () => {
  it('U59: a marked key is lit for a moment, then goes out by itself', () => {
    const clock = manualTimer();
    const h = new Highlights({ durationMs: 1000, timer: clock.timer });
    h.mark(highlightKey.block('human'), 'Core block “human” changed.');
    expect(h.isLit('block:human')).toBe(true);
    expect(h.note).toBe('Core block “human” changed.');
    clock.advance(999);
    expect(h.isLit('block:human')).toBe(true);
    clock.advance(1);
    expect(h.isLit('block:human')).toBe(false);
  });

  it('U59: marking a lit key again restarts its time instead of ending early', () => {
    const clock = manualTimer();
    const h = new Highlights({ durationMs: 1000, timer: clock.timer });
    h.mark('summary');
    clock.advance(800);
    h.mark('summary');
    clock.advance(800);
    expect(h.isLit('summary')).toBe(true);
    expect(clock.pending()).toBe(1);
    clock.advance(200);
    expect(h.isLit('summary')).toBe(false);
  });

  it('U59: clear puts everything out and cancels the timers', () => {
    const clock = manualTimer();
    const h = new Highlights({ timer: clock.timer });
    h.mark(['message:a', 'message:b'], 'two');
    expect(h.lit.size).toBe(2);
    h.clear();
    expect(h.lit.size).toBe(0);
    expect(h.note).toBe('');
    expect(clock.pending()).toBe(0);
  });
});

const snap = (over: Partial<MemorySnapshot> = {}): MemorySnapshot => ({
  blocks: new Map([
    ['persona', 1],
    ['human', 1],
  ]),
  queue: ['m1', 'm2', 'm3'],
  summaryVersion: 0,
  memories: [],
  ...over,
});

describe('memoryChanges', () => {
  it('U59: the first look lights nothing', () => {
    expect(memoryChanges(null, snap())).toEqual([]);
    expect(memoryChanges(snap(), snap())).toEqual([]);
  });

  it('U59: an edited block is highlighted by label', () => {
    const after = snap({
      blocks: new Map([
        ['persona', 1],
        ['human', 2],
      ]),
    });
    expect(memoryChanges(snap(), after)).toEqual([
      { keys: ['block:human'], note: 'Core block “human” changed.' },
    ]);
  });

  it('U59: eviction lights the queue, a new summary lights the summary, new messages light themselves', () => {
    const after = snap({ queue: ['m3', 'm4'], summaryVersion: 1 });
    const changes = memoryChanges(snap(), after);
    expect(changes.map((c) => c.keys)).toEqual([['queue'], ['message:m4'], ['summary']]);
    expect(changes[0]!.note).toBe('2 messages left the context for recall storage.');
  });

  it('U59: memories paged in by recall are highlighted, ones already there are not', () => {
    const changes = memoryChanges(
      snap({ memories: ['r1'] }),
      snap({ memories: ['r1', 'r2', 'p9'] }),
    );
    expect(changes).toEqual([
      { keys: ['memory:r2', 'memory:p9'], note: '2 memories were paged into the context.' },
    ]);
  });
});

describe('eventChanges', () => {
  it('U59: a block edit, an archival save and a flush each light what they changed', () => {
    expect(
      eventChanges({
        type: 'memory.changed',
        turnId: 't1',
        step: 1,
        changes: [
          { type: 'core', label: 'human', version: 2, value: 'x' },
          { type: 'archival', passageId: 'p1', text: 'Miso is a cat.' },
        ],
      }),
    ).toEqual([
      { keys: ['block:human'], note: 'Core block “human” changed.' },
      { keys: ['passage:p1'], note: 'A memory was saved to archival storage.' },
    ]);
    const flush = eventChanges({
      type: 'summary.created',
      turnId: 't1',
      evictedIds: ['m1', 'm2'],
    } as unknown as TurnEvent);
    expect(flush).toHaveLength(1);
    expect(flush[0]?.note).toBe(
      '2 messages moved to recall storage and the summary was rewritten.',
    );
    expect(eventChanges({ type: 'turn.started', turnId: 't1' } as unknown as TurnEvent)).toEqual(
      [],
    );
  });
});
