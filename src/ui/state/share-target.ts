/**
 * What the page was opened with by a share (ADR 0057, 0085, 0131): the launch URL's query is read
 * once at start and taken off the address, so a reload does nothing again. Text and links shared
 * by a `?share_text=…` link go to the "Shared with Loci" inbox — never straight to an agent — and
 * a link another website followed (its origin is the referrer) is refused. The service worker's
 * POST share target redirects here with `share_inbox=<id>` or `share_refused=<reason>`.
 */
import type { SharedText } from './share-inbox';

/** The GET parameters of the first share target (ADR 0057), still read for old installs. */
export const SHARE_PARAMS = { title: 'share_title', text: 'share_text', url: 'share_url' } as const;
/** The query parameter the service worker opens the app with after storing a share. */
export const SHARE_INBOX_PARAM = 'share_inbox';
/** The query parameter it opens the app with after refusing one. */
export const SHARE_REFUSED_PARAM = 'share_refused';
/** With a `cross_site` refusal: the other website's origin. */
export const SHARE_FROM_PARAM = 'share_from';

/** Why a share was not taken into the inbox. */
export type ShareRefusal = 'cross_site' | 'framed' | 'not_navigation' | 'inbox_full' | 'unreadable';

const REFUSALS: readonly ShareRefusal[] = [
  'cross_site',
  'framed',
  'not_navigation',
  'inbox_full',
  'unreadable',
];

/** What one launch brought. */
export interface ShareLaunch {
  /** Text shared by a link, to put into the inbox. */
  text: SharedText | null;
  /** The inbox item the service worker stored, to show first. */
  inboxId: string | null;
  refused: ShareRefusal | null;
  /** The other website's origin, when one was refused. */
  refusedFrom: string | null;
}

/**
 * Reads a share off the launch URL. `referrer` is `document.referrer`: a link followed from
 * another origin names it (unless that site hid it, which makes it look like a share sheet).
 */
export function shareLaunchFrom(search: string, origin: string, referrer: string): ShareLaunch {
  const params = new URLSearchParams(search);
  const launch: ShareLaunch = { text: null, inboxId: null, refused: null, refusedFrom: null };
  const inboxId = params.get(SHARE_INBOX_PARAM);
  if (inboxId !== null && /^[a-z0-9-]{1,40}$/.test(inboxId)) launch.inboxId = inboxId;
  const refused = params.get(SHARE_REFUSED_PARAM) as ShareRefusal | null;
  if (refused !== null && REFUSALS.includes(refused)) {
    launch.refused = refused;
    const from = originOf(params.get(SHARE_FROM_PARAM) ?? '');
    if (refused === 'cross_site' && from !== 'unknown') launch.refusedFrom = from;
  }
  const text = params.get(SHARE_PARAMS.text) ?? '';
  const url = params.get(SHARE_PARAMS.url) ?? '';
  if (text.trim() === '' && url.trim() === '') return launch;
  const from = originOf(referrer);
  if (from !== null && from !== origin) {
    launch.refused = 'cross_site';
    launch.refusedFrom = from;
    return launch;
  }
  launch.text = { title: params.get(SHARE_PARAMS.title) ?? '', text, url };
  return launch;
}

function originOf(url: string): string | null {
  if (url === '') return null;
  try {
    return new URL(url).origin;
  } catch {
    return 'unknown';
  }
}

/** Whether the launch URL carries anything of a share. */
function carriesShare(search: string): boolean {
  const params = new URLSearchParams(search);
  return [SHARE_INBOX_PARAM, SHARE_REFUSED_PARAM, ...Object.values(SHARE_PARAMS)].some((name) =>
    params.has(name),
  );
}

/**
 * Takes a share off the launch URL and rewrites the address to the Documents screen (so a reload
 * does not share twice). Null when the page was not opened by a share.
 */
export function takeShareLaunch(win: Window = window): ShareLaunch | null {
  if (!carriesShare(win.location.search)) return null;
  const launch = shareLaunchFrom(win.location.search, win.location.origin, win.document.referrer);
  win.history.replaceState(null, '', `${win.location.pathname}#/documents`);
  return launch;
}
