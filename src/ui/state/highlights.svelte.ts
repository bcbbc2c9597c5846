/**
 * What changed a moment ago in the memory views, so it can be highlighted (U59): a block the
 * model or the user edited, a memory paged in by a search, messages evicted, a new summary.
 * Keys are lit for `durationMs` and then go out on their own; marking a lit key again restarts
 * its time. The latest note is kept for a polite live region, so screen readers hear it too.
 */
import { SvelteSet } from 'svelte/reactivity';

/** A timer, injectable so tests drive time by hand. */
export interface HighlightTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: HighlightTimer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Keys of the things that can be highlighted, one namespace per tier. */
export const highlightKey = {
  block: (label: string) => `block:${label}`,
  message: (id: string) => `message:${id}`,
  summary: () => 'summary',
  memory: (id: string) => `memory:${id}`,
  passage: (id: string) => `passage:${id}`,
  queue: () => 'queue',
  context: () => 'context',
} as const;

export interface HighlightOptions {
  /** How long a key stays lit, in ms (default 2400: long enough to find it, short enough to not nag). */
  durationMs?: number;
  timer?: HighlightTimer;
}

export class Highlights {
  /** Lit keys (reactive: readers re-render when a key lights or goes out). */
  readonly lit = new SvelteSet<string>();
  /** The last change, in words, for an `aria-live="polite"` region. */
  note = $state('');

  readonly durationMs: number;
  readonly #timer: HighlightTimer;
  // Timer handles are bookkeeping, never rendered, so a plain Map is right here.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #handles = new Map<string, unknown>();

  constructor(options: HighlightOptions = {}) {
    this.durationMs = options.durationMs ?? 2400;
    this.#timer = options.timer ?? realTimer;
  }

  /** Lights `keys` for {@link durationMs}; `note` (optional) says what happened. */
  mark(keys: string | readonly string[], note?: string): void {
    const list = typeof keys === 'string' ? [keys] : keys;
    if (note !== undefined && note !== '') this.note = note;
    if (list.length === 0) return;
    for (const key of list) {
      const previous = this.#handles.get(key);
      if (previous !== undefined) this.#timer.clear(previous);
      this.lit.add(key);
      this.#handles.set(
        key,
        this.#timer.set(() => this.#expire(key), this.durationMs),
      );
    }
  }

  isLit(key: string): boolean {
    return this.lit.has(key);
  }

  /** Puts every key out at once (agent switch). */
  clear(): void {
    for (const handle of this.#handles.values()) this.#timer.clear(handle);
    this.#handles.clear();
    this.lit.clear();
    this.note = '';
  }

  #expire(key: string): void {
    this.#handles.delete(key);
    this.lit.delete(key);
  }
}

/** The part of the highlights the session lights (method syntax: any `kind` type fits). */
export interface HighlightSink {
  mark(keys: string | readonly string[], note?: string): void;
}
