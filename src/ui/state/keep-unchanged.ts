/**
 * The chat's live message list after a refresh, reusing the previous object of every message
 * whose stored row did not change (X190). The live query reads fresh rows on every write to the
 * window; handing the same object back means a bubble whose message is unchanged is not rendered
 * again, so a new message costs one bubble, not one per message shown.
 */
import type { Message, MessageId } from '../../core/model';

/** Deep equality of JSON-like values (what a stored message row holds). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameValue(ra[k], rb[k]));
}

export function keepUnchanged(previous: readonly Message[], next: readonly Message[]): Message[] {
  if (previous.length === 0) return [...next];
  const byId = new Map<MessageId, Message>();
  for (const m of previous) byId.set(m.id, m);
  return next.map((m) => {
    const old = byId.get(m.id);
    return old !== undefined && sameValue(old, m) ? old : m;
  });
}
