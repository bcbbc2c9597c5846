/**
 * Catches search by meaning up after an embedding-model switch (R18, U80): the active agent's
 * passages and messages that have no vector from the current model are embedded in the
 * background, batch by batch, with progress for the Settings screen. One tab at a time does it
 * (a lock of its own, so turns are never blocked); an agent switch stops it, and the next open
 * carries on where it stopped, because every batch is persisted as it lands.
 */
import type { AgentId } from '../../core/model';
import type { TurnLock } from '../../core/ports/turn-lock';
import type { LociMemorySearch, ReembedResult } from '../../core/search/memory-search';
import { describeError } from '../error-copy';

export interface BackgroundEmbeddingDeps {
  search: Pick<LociMemorySearch, 'unembedded' | 'reembed' | 'agentId'>;
  lock: TurnLock;
  /** The embedding model's name, for the progress line; null when none is chosen. */
  model: string | null;
}

export class BackgroundEmbedding {
  running = $state(false);
  done = $state(0);
  total = $state(0);
  /** What the last run that finished embedded, or null. */
  finished = $state.raw<ReembedResult | null>(null);
  /** Why the last run stopped, in plain words (the error code's copy), or null. */
  error = $state<string | null>(null);
  /** Set when the user paused it: how many were still to embed. */
  paused = $state<number | null>(null);

  /** The embedding model's name, for the progress line; null when none is chosen. */
  model = $state<string | null>(null);

  private controller: AbortController | null = null;
  private agentId: AgentId | null = null;
  private current: Promise<void> | null = null;

  constructor(private readonly deps: BackgroundEmbeddingDeps) {
    this.model = deps.model;
  }

  /**
   * Before an embedding-model switch (ADR 0177): stops a run in progress, waits for its batch to
   * land, and forgets what it reported (it was about the previous model).
   */
  async halt(): Promise<void> {
    this.controller?.abort();
    await this.current;
    this.finished = null;
    this.error = null;
    this.paused = null;
    this.done = 0;
    this.total = 0;
  }

  /** After the switch: names the model now in use; `run` then catches up for it. */
  useModel(model: string | null): void {
    this.model = model;
  }

  /** Starts catching up for the loaded agent, unless nothing is missing or it already runs. */
  run(agentId: AgentId): Promise<void> {
    if (this.running && this.current) return this.current;
    const run = this.runOnce(agentId);
    this.current = run;
    return run;
  }

  private async runOnce(agentId: AgentId): Promise<void> {
    const { search, lock } = this.deps;
    if (this.running || search.agentId !== agentId || search.unembedded === 0) return;
    const release = await lock.acquire(`reembed:${agentId}`);
    if (!release) return; // another tab is doing it
    this.running = true;
    this.agentId = agentId;
    this.paused = null;
    this.error = null;
    this.done = 0;
    this.total = search.unembedded;
    const controller = new AbortController();
    this.controller = controller;
    try {
      const result = await search.reembed({
        signal: controller.signal,
        onProgress: (done, total) => {
          this.done = done;
          this.total = total;
        },
      });
      if (result.complete) this.finished = result;
      else if (controller.signal.aborted) this.paused = search.unembedded;
    } catch (error) {
      // What happened in plain words (U217); the library's own message goes to the console.
      const described = describeError(error);
      this.error = described.what;
      console.warn('embedding earlier memories stopped:', described.detail);
    } finally {
      this.running = false;
      this.controller = null;
      await release();
    }
  }

  stop(): void {
    this.controller?.abort();
  }

  /** Carries on after a pause, or tries again after a failure (U217: a failed download). */
  async resume(): Promise<void> {
    if (this.agentId !== null) await this.run(this.agentId);
  }
}
