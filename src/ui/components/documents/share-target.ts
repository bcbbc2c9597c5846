import type { ImportFile, SharedContent } from '../../state/documents.svelte';

/** The GET parameters the manifest's `share_target` sends (ADR 0057). */
export const SHARE_PARAMS = { title: 'share_title', text: 'share_text', url: 'share_url' } as const;

/**
 * The text shared to the installed app, from the launch URL's query (`?share_text=…`), or null.
 * The URL, when there is one, is appended to the text so the note keeps it.
 */
export function sharedContentFrom(search: string): SharedContent | null {
  const params = new URLSearchParams(search);
  const text = params.get(SHARE_PARAMS.text)?.trim() ?? '';
  const url = params.get(SHARE_PARAMS.url)?.trim() ?? '';
  const body = [text, url].filter((s) => s !== '').join('\n\n');
  if (body === '') return null;
  const title = params.get(SHARE_PARAMS.title)?.trim() || 'Shared note';
  return { title, text: body };
}

/**
 * Takes shared content off the launch URL: returns it and rewrites the address to the Documents
 * screen (so a reload does not import it twice). Null when the page was not opened by a share.
 */
export function takeSharedContent(win: Window = window): SharedContent | null {
  const shared = sharedContentFrom(win.location.search);
  if (shared === null) return null;
  win.history.replaceState(null, '', `${win.location.pathname}#/documents`);
  return shared;
}

/** The query parameter the service worker's share handler opens the app with (ADR 0085). */
export const SHARE_INBOX_PARAM = 'share_inbox';
/** The Cache Storage cache `public/share-target-sw.js` writes shares into. */
export const SHARE_INBOX_CACHE = 'loci-share-inbox';

interface InboxMeta {
  title?: unknown;
  text?: unknown;
  url?: unknown;
  files?: unknown;
}

/**
 * Takes the share-inbox id off the launch URL (rewriting the address to the Documents screen, so
 * a reload does not import twice), or null when the page was not opened by a file share.
 */
export function takeShareInboxId(win: Window = window): string | null {
  const id = new URLSearchParams(win.location.search).get(SHARE_INBOX_PARAM);
  if (id === null) return null;
  win.history.replaceState(null, '', `${win.location.pathname}#/documents`);
  return id;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Reads one share out of the inbox and deletes it: its text and link, and its files as import
 * files. What the service worker stored is treated as untrusted input: only strings and the
 * stored bodies are used, and a missing or malformed entry becomes a `problem` sentence.
 */
export async function readShareInbox(
  id: string,
  storage: CacheStorage | undefined = globalThis.caches,
  base: string = globalThis.location?.href ?? 'http://localhost/',
): Promise<SharedContent> {
  const failed = (problem: string): SharedContent => ({ title: 'Shared files', text: '', problem });
  if (!/^[a-z0-9-]{1,40}$/.test(id) || storage === undefined) {
    return failed('The shared files could not be read. Share them again, or pick them here.');
  }
  const inbox = await storage.open(SHARE_INBOX_CACHE);
  const metaKey = new URL(`./__share__/${id}/meta`, base).href;
  const metaResponse = await inbox.match(metaKey);
  if (!metaResponse) {
    return failed('The shared files are no longer here. Share them again, or pick them here.');
  }
  let meta: InboxMeta;
  try {
    meta = (await metaResponse.json()) as InboxMeta;
  } catch {
    meta = {};
  }
  const files: ImportFile[] = [];
  const prefix = new URL(`./__share__/${id}/`, base).href;
  for (const entry of Array.isArray(meta.files) ? (meta.files as unknown[]) : []) {
    const e = (entry ?? {}) as { key?: unknown; name?: unknown };
    const key = typeof e.key === 'string' ? e.key : '';
    if (!key.startsWith(prefix)) continue;
    const stored = await inbox.match(key);
    if (!stored) continue;
    const blob = await stored.blob();
    files.push({ blob, name: text(e.name).slice(0, 200) || `shared-${files.length + 1}` });
    await inbox.delete(key);
  }
  await inbox.delete(metaKey);
  const body = [text(meta.text), text(meta.url)].filter((s) => s !== '').join('\n\n');
  return {
    title: text(meta.title).slice(0, 200) || (body !== '' ? 'Shared note' : 'Shared files'),
    text: body,
    files,
  };
}

/** A share the page never opened is dropped after this long (its id starts with its time). */
const STALE_SHARE_MS = 60 * 60 * 1000;

/**
 * Deletes inbox entries of shares older than an hour that no page opened (the app was closed
 * before it loaded, say). Resolves with how many entries were deleted.
 */
export async function sweepShareInbox(
  now: number,
  storage: CacheStorage | undefined = globalThis.caches,
): Promise<number> {
  if (storage === undefined || !(await storage.has(SHARE_INBOX_CACHE))) return 0;
  const inbox = await storage.open(SHARE_INBOX_CACHE);
  let deleted = 0;
  for (const request of await inbox.keys()) {
    const id = /\/__share__\/([a-z0-9]+)-/.exec(request.url)?.[1];
    const at = id === undefined ? Number.NaN : parseInt(id, 36);
    if (Number.isNaN(at) || now - at > STALE_SHARE_MS) {
      await inbox.delete(request);
      deleted += 1;
    }
  }
  return deleted;
}
