/**
 * The "Shared with Loci" inbox as the Documents screen shows it (U200–U205, ADR 0131): what waits,
 * why a share was refused, and the two things the user can do with each share — add it to an
 * agent they pick (its text and link become a note, its files are imported like picked files) or
 * dismiss it. Only `add` writes to IndexedDB, through the documents state's normal import.
 */
import type { AgentId } from '../../core/model';
import type { Clock } from '../../core/ports/clock';
import type { ShareInbox, ShareItem } from './share-inbox';
import type { ShareLaunch, ShareRefusal } from './share-target';
import type { ImportFile } from './documents.svelte';

/** The part of the documents state a confirmed share goes through. */
export interface ShareImporter {
  importText(agentId: AgentId, text: string, title: string): string[];
  importFiles(agentId: AgentId, files: readonly ImportFile[]): string[];
}

export interface ShareInboxDeps {
  inbox: ShareInbox;
  importer: ShareImporter;
  clock: Clock;
}

/** A sentence about a share that was not taken in, for the screen. */
export interface ShareNotice {
  refused: ShareRefusal;
  from: string | null;
}

export class ShareInboxState {
  /** Shares waiting, newest first. */
  items = $state.raw<ShareItem[]>([]);
  /** Set once the inbox has been read. */
  ready = $state(false);
  /** The share this launch brought (shown first, and scrolled to). */
  focus = $state<string | null>(null);
  /** Why the last share was refused, if it was. */
  notice = $state.raw<ShareNotice | null>(null);
  /** A problem reading or writing the inbox. */
  problem = $state('');

  constructor(private readonly deps: ShareInboxDeps) {}

  /** Takes in what this launch brought (a link's text goes into the inbox), then reads it. */
  async receive(launch: ShareLaunch | null): Promise<void> {
    if (launch?.refused) this.notice = { refused: launch.refused, from: launch.refusedFrom };
    if (launch?.inboxId) this.focus = launch.inboxId;
    if (launch?.text) {
      try {
        const id = await this.deps.inbox.addText(launch.text, this.deps.clock.now());
        if (id === 'inbox_full') this.notice = { refused: 'inbox_full', from: null };
        else if (id !== null) this.focus = id;
      } catch (error) {
        console.error('keeping a shared link failed', error);
        this.problem = 'What was shared could not be kept. Share it again.';
      }
    }
    await this.refresh();
  }

  /** Reads the inbox again (expired shares go on the way). */
  async refresh(): Promise<void> {
    try {
      this.items = await this.deps.inbox.list(this.deps.clock.now());
    } catch (error) {
      console.error('reading the share inbox failed', error);
      this.problem = 'The shared items could not be read. Share them again.';
    } finally {
      this.ready = true;
    }
  }

  /**
   * Adds a share to `agentId`: its text and link become one note titled by the share, its files
   * go to the import queue; then it leaves the inbox. Resolves with the import jobs started (none
   * when the share is gone — added or dismissed in another tab, or expired).
   */
  async add(id: string, agentId: AgentId): Promise<string[]> {
    const item = await this.deps.inbox.get(id);
    if (item === null) {
      await this.refresh();
      return [];
    }
    const files = await this.deps.inbox.files(item);
    // Removed first: a second click or another tab must not import it twice.
    await this.deps.inbox.remove(id);
    const jobs: string[] = [];
    const body = [item.text, item.url].filter((s) => s !== '').join('\n\n');
    if (body !== '') {
      jobs.push(...this.deps.importer.importText(agentId, body, item.title || 'Shared note'));
    }
    if (files.length > 0) jobs.push(...this.deps.importer.importFiles(agentId, files));
    if (this.focus === id) this.focus = null;
    await this.refresh();
    return jobs;
  }

  /** Deletes a share without adding it anywhere. */
  async dismiss(id: string): Promise<void> {
    await this.deps.inbox.remove(id);
    if (this.focus === id) this.focus = null;
    await this.refresh();
  }

  /** Forgets the refusal notice. */
  clearNotice(): void {
    this.notice = null;
  }
}
