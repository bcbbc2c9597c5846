import type { SharedContent } from '../../state/documents.svelte';

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
