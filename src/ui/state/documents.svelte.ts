/**
 * The Documents screen's state: a queue of imports with live progress and a Cancel per file,
 * delete and re-embed of library documents (U130–U139). Shares wait in the inbox
 * (`share-inbox.svelte.ts`) and come here only when the user adds them.
 *
 * Imports run on the page, one at a time, with `commitEvery` batches and a yield to the host
 * between slices so the UI keeps painting (ADR 0055). The library list itself is not kept here:
 * the screen reads it with a live query, so deletes and imports in any tab show everywhere.
 */
import { deleteDocument } from '../../core/documents/delete-document';
import type { DocumentSource } from '../../core/documents/document-source';
import { ingestDocument, type IngestDeps } from '../../core/documents/ingest';
import { documentsToReembed, reembedDocument } from '../../core/documents/reembed-document';
import { removeUnfinishedImports } from '../../core/documents/remove-unfinished-imports';
import type { ErrorCode } from '../../core/errors';
import type { AgentId, ConversationId, DocumentId, DocumentMeta } from '../../core/model';
import type { Clock, IdSource } from '../../core/ports/clock';
import type { TurnLock } from '../../core/ports/turn-lock';
import type { Embedder } from '../../core/ports/embedder';
import type { MemorySearch } from '../../core/ports/memory-search';
import type { MemoryStore } from '../../core/ports/memory-store';
import { describeError } from '../error-copy';

/** Passages per change set on the page: each commit stays a short task (ADR 0050, 0055). */
export const PAGE_COMMIT_EVERY = 256;

/** Where one file's import is; the stages after `embedding` are final. */
export type ImportStage =
  | { type: 'queued' }
  | { type: 'reading'; loadedBytes: number; totalBytes: number }
  /** Parsing and splitting into passages: characters done of the text (X179). */
  | { type: 'parsing'; doneChars: number; totalChars: number }
  | { type: 'chunked'; passages: number }
  | { type: 'embedding'; done: number; total: number }
  | { type: 'indexing'; passages: number }
  | { type: 'indexed'; documentId: DocumentId; passages: number }
  | { type: 'duplicate'; documentId: DocumentId; title: string }
  | { type: 'cancelled' }
  | { type: 'failed'; code: ErrorCode; what: string; action: string };

/** One file in the import queue, as the screen lists it. */
export interface ImportJob {
  id: string;
  agentId: AgentId;
  /** The chat that was open when the file was queued: its "document imported" note goes there. */
  conversationId?: ConversationId;
  name: string;
  bytes: number;
  stage: ImportStage;
}

/** A file to import: a `File`, or pasted/shared text wrapped in a `Blob` with a name. */
export interface ImportFile {
  blob: Blob;
  name: string;
  /** Pasted and shared text is plain text whatever its name says. */
  asText?: boolean;
}

/** The lock importing tabs share for an agent (D41). */
export const importLockKey = (agentId: AgentId): string => `import:${agentId}`;

export interface DocumentsDeps {
  store: MemoryStore;
  search: MemorySearch;
  /**
   * Null until the user picks an embedding model in Settings: documents are then imported and
   * searched by their words, and embedded in the background once a model is chosen (U160).
   */
  embedder: Embedder | null;
  clock: Clock;
  ids: IdSource;
  /** Opens a file for the ingest pipeline; throws `document_unsupported` for other types. */
  open: (file: ImportFile) => DocumentSource;
  /** Lets the page paint between slices of an import (e.g. a `setTimeout(0)` promise). */
  yieldToHost?: () => Promise<void>;
  /** The import pipeline; the core's `ingestDocument` unless a test swaps it. */
  ingest?: typeof ingestDocument;
  /**
   * Tabs importing for an agent hold `import:<agent>` shared; a sweep takes it exclusively, so it
   * never deletes another tab's import in progress (D41). Without it only this tab is checked.
   */
  lock?: TurnLock;
  /** Told when an import has finished (the app asks for persistent storage then, P20). */
  onImported?: (document: DocumentMeta) => void;
  /**
   * The conversation open for an agent, if any (rule A25): the "document imported"
   * note is written there, not into the agent's most recent conversation.
   */
  conversationFor?: (agentId: AgentId) => ConversationId | undefined;
}

/** Re-embed progress of one document. */
export interface ReembedProgress {
  done: number;
  total: number;
}

const FINAL: ReadonlySet<ImportStage['type']> = new Set([
  'indexed',
  'duplicate',
  'cancelled',
  'failed',
]);

/** Whether a job has ended (imported, already there, cancelled or failed). */
export function isFinished(job: ImportJob): boolean {
  return FINAL.has(job.stage.type);
}

function failure(error: unknown): Extract<ImportStage, { type: 'failed' }> {
  const copy = describeError(error);
  // Document errors name the file and the reason: that sentence is the most useful one.
  const specific = copy.code === 'document_unsupported' || copy.code === 'document_parse_failed';
  return {
    type: 'failed',
    code: copy.code,
    what: specific ? copy.detail : copy.what,
    action: copy.action,
  };
}

export class DocumentsState {
  /** Imports of this tab, oldest first (finished ones stay until dismissed). */
  jobs = $state.raw<ImportJob[]>([]);
  /** Documents being re-embedded, by id. */
  reembedding = $state.raw<Record<DocumentId, ReembedProgress>>({});
  /** The last delete or re-embed failure, shown above the library. */
  error = $state.raw<ReturnType<typeof describeError> | null>(null);
  /**
   * True once the document worker could not start: files are then read on this page, and a
   * large one may pause the screen (X178). The screen says so.
   */
  readingOnPage = $state(false);

  // Not state: nothing renders from the controllers.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly controllers = new Map<string, AbortController>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DocumentsDeps) {}

  /** True when an embedding model is set up: imports are then searchable by meaning too. */
  get byMeaning(): boolean {
    return this.deps.embedder !== null;
  }

  /** The embedding model imports use now (for the re-embed check), or null. */
  get embedder(): Embedder | null {
    return this.deps.embedder;
  }

  /** True while this tab has an unfinished import for the agent. */
  importing(agentId: AgentId): boolean {
    return this.jobs.some((j) => j.agentId === agentId && !isFinished(j));
  }

  /**
   * Queues files for import into the agent's archival memory; returns the new jobs' ids. Files
   * of an unsupported type fail at once with a message that names them (U131). The queue runs
   * one import at a time, in order.
   */
  importFiles(agentId: AgentId, files: readonly ImportFile[]): string[] {
    const added: ImportJob[] = [];
    const runs: { job: ImportJob; source: DocumentSource }[] = [];
    for (const file of files) {
      const conversationId = this.deps.conversationFor?.(agentId);
      const job: ImportJob = {
        id: this.deps.ids.next('import'),
        agentId,
        ...(conversationId !== undefined ? { conversationId } : {}),
        name: file.name,
        bytes: file.blob.size,
        stage: { type: 'queued' },
      };
      try {
        runs.push({ job, source: this.deps.open(file) });
      } catch (error) {
        job.stage = failure(error);
      }
      added.push(job);
    }
    this.jobs = [...this.jobs, ...added];
    for (const { job, source } of runs) {
      const controller = new AbortController();
      this.controllers.set(job.id, controller);
      this.queue = this.queue.then(() => this.run(job.id, source, controller.signal));
    }
    return added.map((j) => j.id);
  }

  /** Imports pasted or shared text as a note document titled `title` (U132). */
  importText(agentId: AgentId, text: string, title: string): string[] {
    const name = `${title.trim() || 'Pasted note'}.txt`;
    const blob = new Blob([text], { type: 'text/plain' });
    return this.importFiles(agentId, [{ blob, name, asText: true }]);
  }

  /** Cancels a queued or running import; nothing of it stays in storage (D39). */
  cancel(jobId: string): void {
    const controller = this.controllers.get(jobId);
    if (!controller) return;
    controller.abort();
    const job = this.jobs.find((j) => j.id === jobId);
    if (job?.stage.type === 'queued') this.update(jobId, { type: 'cancelled' });
  }

  /** Removes finished imports from the list. */
  clearFinished(): void {
    this.jobs = this.jobs.filter((j) => !isFinished(j));
  }

  /** Resolves when every queued import has ended (tests, and the share flow). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Deletes a document with its passages, vectors and index entries (U134). */
  async remove(documentId: DocumentId): Promise<boolean> {
    try {
      await deleteDocument(this.deps, documentId);
      this.error = null;
      return true;
    } catch (error) {
      this.error = describeError(error);
      return false;
    }
  }

  /** The agent's documents embedded by another model than the current one (U135). */
  async stale(agentId: AgentId): Promise<DocumentMeta[]> {
    const embedder = this.deps.embedder;
    if (embedder === null) return [];
    return documentsToReembed(this.deps.store, agentId, embedder);
  }

  /** Re-embeds a document with the current embedding model, with x/N progress. */
  async reembed(documentId: DocumentId): Promise<boolean> {
    const embedder = this.deps.embedder;
    if (embedder === null || this.reembedding[documentId]) return false;
    this.reembedding = { ...this.reembedding, [documentId]: { done: 0, total: 0 } };
    try {
      await reembedDocument({ ...this.deps, embedder, ...this.yieldDep() }, documentId, {
        onProgress: (done, total) => {
          this.reembedding = { ...this.reembedding, [documentId]: { done, total } };
        },
      });
      this.error = null;
      return true;
    } catch (error) {
      this.error = describeError(error);
      return false;
    } finally {
      const { [documentId]: _done, ...rest } = this.reembedding;
      this.reembedding = rest;
    }
  }

  /**
   * Deletes what a crashed or closed tab left of its imports (D39). Call it only in the tab that
   * holds the agent's lock, before the search index loads; it does nothing while this tab is
   * importing for the agent (those rows look the same).
   */
  async sweep(agentId: AgentId): Promise<DocumentId[]> {
    if (this.importing(agentId)) return [];
    const lock = this.deps.lock;
    const release = lock?.share ? await lock.acquire(importLockKey(agentId)) : null;
    if (lock?.share && release === null) return []; // another tab is importing for this agent
    try {
      return await removeUnfinishedImports(this.deps, agentId);
    } finally {
      await release?.();
    }
  }

  private yieldDep(): Pick<IngestDeps, 'yieldToHost'> {
    return this.deps.yieldToHost ? { yieldToHost: this.deps.yieldToHost } : {};
  }

  private async run(jobId: string, source: DocumentSource, signal: AbortSignal): Promise<void> {
    const job = this.jobs.find((j) => j.id === jobId);
    const embedder = this.deps.embedder;
    if (!job || job.stage.type !== 'queued') return;
    if (signal.aborted) {
      this.update(jobId, { type: 'cancelled' });
      return;
    }
    const ingest = this.deps.ingest ?? ingestDocument;
    // Held while this import writes: another tab's sweep then leaves its rows alone (D41).
    const release = await this.deps.lock?.share?.(importLockKey(job.agentId));
    try {
      const outcome = await ingest(
        { ...this.deps, embedder, ...this.yieldDep() },
        job.agentId,
        source,
        {
          signal,
          ...(job.conversationId !== undefined ? { conversationId: job.conversationId } : {}),
          commitEvery: PAGE_COMMIT_EVERY,
          onProgress: (p) => {
            if (signal.aborted) return;
            switch (p.type) {
              case 'reading':
                this.update(jobId, p);
                return;
              case 'parsing':
                // A whole-percent step at most: every update re-renders the list.
                if (this.percentChanged(jobId, p)) this.update(jobId, p);
                return;
              case 'chunked':
                this.update(jobId, p);
                return;
              case 'embedding':
                // The last batch embedded: what remains is the commit and the index.
                this.update(jobId, p.done >= p.total ? { type: 'indexing', passages: p.total } : p);
                return;
              case 'indexed':
                return;
            }
          },
        },
      );
      switch (outcome.type) {
        case 'imported':
          this.deps.onImported?.(outcome.document);
          this.update(jobId, {
            type: 'indexed',
            documentId: outcome.document.id,
            passages: outcome.document.passages,
          });
          return;
        case 'duplicate':
          this.update(jobId, {
            type: 'duplicate',
            documentId: outcome.document.id,
            title: outcome.document.title,
          });
          return;
        case 'cancelled':
          this.update(jobId, { type: 'cancelled' });
          return;
      }
    } catch (error) {
      this.update(jobId, failure(error));
    } finally {
      this.controllers.delete(jobId);
      await release?.();
    }
  }

  /** Tells the screen that imports are read on the page (the document worker cannot start). */
  noteReadingOnPage(): void {
    this.readingOnPage = true;
  }

  private percentChanged(jobId: string, p: { doneChars: number; totalChars: number }): boolean {
    const stage = this.jobs.find((j) => j.id === jobId)?.stage;
    if (stage?.type !== 'parsing') return true;
    const percent = (done: number, total: number) => Math.floor((100 * done) / Math.max(1, total));
    return percent(stage.doneChars, stage.totalChars) !== percent(p.doneChars, p.totalChars);
  }

  private update(jobId: string, stage: ImportStage): void {
    this.jobs = this.jobs.map((j) => (j.id === jobId ? { ...j, stage } : j));
  }
}
