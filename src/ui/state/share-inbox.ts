/**
 * The "Shared with Loci" inbox (U200–U205, ADR 0131): what was shared to the app — by the OS share
 * sheet (a POST the service worker stores, `public/share-target-sw.js`) or by a link
 * (`?share_text=…`) — waits here, in Cache Storage, until the user adds it to an agent or dismisses
 * it. Nothing in the inbox is in IndexedDB, so no agent's memory, queue or documents change until
 * the user confirms. Everything read back is untrusted input: only strings, numbers and the stored
 * bodies under the share's own folder are used, sizes are capped again, and a malformed entry is
 * deleted rather than shown.
 */
import type { EpochMs } from '../../core/units';
import type { ImportFile } from './documents.svelte';
import { SHARE_EXPIRY_MS, SHARE_LIMITS } from './share-limits';

/** The Cache Storage cache the service worker and this module share. */
export const SHARE_INBOX_CACHE = 'loci-share-inbox';

/** One file kept with a share. */
export interface SharedFile {
  key: string;
  name: string;
  type: string;
  bytes: number;
}

/** A file the share brought that was not kept, and why. */
export interface DroppedFile {
  name: string;
  bytes: number;
  why: 'too_many' | 'too_large';
}

/** One share waiting for the user. */
export interface ShareItem {
  id: string;
  at: EpochMs;
  /** `share_target`: the OS share sheet (or a POST that looked like it); `link`: a `?share_…` URL. */
  via: 'share_target' | 'link';
  title: string;
  text: string;
  url: string;
  files: SharedFile[];
  dropped: DroppedFile[];
  /** Which fields were longer than the limits and were cut. */
  cut: { title: boolean; text: boolean; url: boolean };
}

/** Text and link of a share, before the limits. */
export interface SharedText {
  title: string;
  text: string;
  url: string;
}

/** What the page may keep from an untrusted string. */
const clip = (value: unknown, chars: number): { text: string; cut: boolean } => {
  const text = typeof value === 'string' ? value : '';
  return { text: text.slice(0, chars), cut: text.length > chars };
};
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;

const ID = /^[a-z0-9]{1,12}-[a-z0-9]{1,16}$/;
/** Files without a record are left alone this long: the service worker may still be writing. */
const ORPHAN_GRACE_MS = 10 * 60 * 1000;

/** When a share was made: its id starts with the time in base 36. */
function idTime(id: string): number {
  return parseInt(id.split('-')[0] ?? '', 36);
}

export class ShareInbox {
  constructor(
    private readonly storage: CacheStorage | undefined = globalThis.caches,
    private readonly base: string = globalThis.location?.href ?? 'http://localhost/',
  ) {}

  private folder(id: string): string {
    return new URL(`./__share__/${id}/`, this.base).href;
  }

  private async cache(): Promise<Cache | null> {
    return this.storage ? this.storage.open(SHARE_INBOX_CACHE) : null;
  }

  /** The ids of the shares in the inbox (valid or not). */
  private async ids(cache: Cache): Promise<string[]> {
    const ids: string[] = [];
    for (const request of await cache.keys()) {
      const match = /\/__share__\/([^/]+)\/meta$/.exec(request.url);
      if (match?.[1] !== undefined) ids.push(match[1]);
    }
    return ids;
  }

  /** Reads one share's record, or null when it is missing or malformed. */
  private async read(cache: Cache, id: string): Promise<ShareItem | null> {
    if (!ID.test(id)) return null;
    const response = await cache.match(`${this.folder(id)}meta`);
    if (!response) return null;
    let meta: Record<string, unknown>;
    try {
      const parsed: unknown = await response.json();
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
      meta = parsed as Record<string, unknown>;
    } catch {
      return null; // not JSON: the caller deletes it
    }
    const title = clip(meta.title, SHARE_LIMITS.titleChars);
    const text = clip(meta.text, SHARE_LIMITS.textChars);
    const url = clip(meta.url, SHARE_LIMITS.urlChars);
    const wasCut = (meta.cut ?? {}) as Record<string, unknown>;
    const folder = this.folder(id);
    const files: SharedFile[] = [];
    for (const entry of Array.isArray(meta.files) ? (meta.files as unknown[]) : []) {
      const e = (entry ?? {}) as Record<string, unknown>;
      const key = typeof e.key === 'string' ? e.key : '';
      // Only this share's own folder: a record cannot point at another share's files.
      if (!key.startsWith(folder) || files.length >= SHARE_LIMITS.files) continue;
      files.push({
        key,
        name: clip(e.name, 200).text || `shared-${files.length + 1}`,
        type: clip(e.type, 100).text,
        bytes: count(e.bytes),
      });
    }
    const dropped: DroppedFile[] = [];
    for (const entry of Array.isArray(meta.dropped)
      ? (meta.dropped as unknown[]).slice(0, 50)
      : []) {
      const e = (entry ?? {}) as Record<string, unknown>;
      dropped.push({
        name: clip(e.name, 200).text,
        bytes: count(e.bytes),
        why: e.why === 'too_many' ? 'too_many' : 'too_large',
      });
    }
    const at = count(meta.at) || idTime(id);
    return {
      id,
      at: Number.isNaN(at) ? 0 : at,
      via: meta.via === 'link' ? 'link' : 'share_target',
      title: title.text.trim(),
      text: text.text.trim(),
      url: url.text.trim(),
      files,
      dropped,
      cut: {
        title: title.cut || wasCut.title === true,
        text: text.cut || wasCut.text === true,
        url: url.cut || wasCut.url === true,
      },
    };
  }

  /**
   * The shares waiting, newest first. Expired shares (older than a day) and malformed records
   * are deleted on the way.
   */
  async list(now: EpochMs): Promise<ShareItem[]> {
    const cache = await this.cache();
    if (!cache) return [];
    const items: ShareItem[] = [];
    for (const id of await this.ids(cache)) {
      const item = await this.read(cache, id);
      if (item === null || now - item.at > SHARE_EXPIRY_MS) await this.removeFrom(cache, id);
      else items.push(item);
    }
    return items.sort((a, b) => b.at - a.at);
  }

  /**
   * Puts text shared by a link into the inbox, cut to the limits. Resolves with the new id, or
   * `inbox_full` when {@link SHARE_LIMITS.pending} shares already wait.
   */
  async addText(shared: SharedText, now: EpochMs): Promise<string | 'inbox_full' | null> {
    const cache = await this.cache();
    if (!cache) return null;
    if ((await this.ids(cache)).length >= SHARE_LIMITS.pending) return 'inbox_full';
    const title = clip(shared.title, SHARE_LIMITS.titleChars);
    const text = clip(shared.text, SHARE_LIMITS.textChars);
    const url = clip(shared.url, SHARE_LIMITS.urlChars);
    const id = `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    const meta = {
      v: 2,
      at: now,
      via: 'link',
      title: title.text,
      text: text.text,
      url: url.text,
      files: [],
      dropped: [],
      cut: { title: title.cut, text: text.cut, url: url.cut },
    };
    await cache.put(`${this.folder(id)}meta`, Response.json(meta));
    return id;
  }

  /** The share, or null when it is gone (added in another tab, expired, dismissed). */
  async get(id: string): Promise<ShareItem | null> {
    const cache = await this.cache();
    return cache ? this.read(cache, id) : null;
  }

  /** The share's kept files, ready for the import queue. */
  async files(item: ShareItem): Promise<ImportFile[]> {
    const cache = await this.cache();
    if (!cache) return [];
    const files: ImportFile[] = [];
    for (const file of item.files) {
      const stored = await cache.match(file.key);
      if (!stored) continue;
      const blob = await stored.blob();
      if (blob.size > SHARE_LIMITS.fileBytes) continue;
      files.push({ blob, name: file.name });
    }
    return files;
  }

  /** Deletes a share and its files. */
  async remove(id: string): Promise<void> {
    const cache = await this.cache();
    if (cache) await this.removeFrom(cache, id);
  }

  private async removeFrom(cache: Cache, id: string): Promise<void> {
    const folder = this.folder(id);
    for (const request of await cache.keys()) {
      if (request.url.startsWith(folder)) await cache.delete(request);
    }
  }

  /**
   * Deletes files whose share record is gone (a service worker cut off between writing the files
   * and the record) and expired shares. Resolves with how many entries were deleted.
   */
  async sweep(now: EpochMs): Promise<number> {
    if (!this.storage || !(await this.storage.has(SHARE_INBOX_CACHE))) return 0;
    const cache = await this.storage.open(SHARE_INBOX_CACHE);
    const live = new Set((await this.list(now)).map((item) => this.folder(item.id)));
    let deleted = 0;
    for (const request of await cache.keys()) {
      const match = /^(.*\/__share__\/([^/]+)\/)/.exec(request.url);
      const folder = match?.[1];
      // A share whose record is not written yet may be in the service worker's hands right now.
      const settled = !(now - idTime(match?.[2] ?? '') < ORPHAN_GRACE_MS);
      if (folder === undefined || (!live.has(folder) && settled)) {
        await cache.delete(request);
        deleted += 1;
      }
    }
    return deleted;
  }
}
