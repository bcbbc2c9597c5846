/*
 * Loci's Web Share Target (ADR 0085, 0131), imported into the generated service worker. The
 * installed app receives shares as a POST (multipart or urlencoded) to ./share-target. This
 * handler only puts what was shared into the "Shared with Loci" inbox (Cache Storage), capped in
 * size; nothing reaches an agent until the user confirms it on the Documents screen
 * (src/ui/components/documents/share-inbox.ts reads the inbox). Nothing leaves the device.
 *
 * A service worker never sees Sec-Fetch-Site or Origin (browsers add them after it), so it tells
 * a share sheet from another website by what it does see: the OS share sheet's POST is a
 * top-level navigation the browser starts itself, with no referrer. A POST that names another
 * origin as its referrer, is framed, or is not a navigation is refused. A website that strips
 * its referrer looks like the share sheet: its share waits in the inbox like any other.
 */
/* global self, caches, Response, URL */
const SHARE_INBOX_CACHE = 'loci-share-inbox';
// Must equal SHARE_LIMITS in src/ui/components/documents/share-limits.ts (a unit test checks).
const LIMITS = {
  titleChars: 200,
  textChars: 20000,
  urlChars: 2000,
  files: 10,
  fileBytes: 30 * 1024 * 1024,
  shareBytes: 60 * 1024 * 1024,
  pending: 20,
};

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'POST') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.endsWith('/share-target')) return;
  event.respondWith(receiveShare(request));
});

/** Why a POST to the share target is refused, or null when it may be a share sheet's. */
function refusal(request) {
  if (request.mode !== 'navigate') return 'not_navigation';
  if (request.destination !== 'document') return 'framed';
  if (request.referrer !== '') {
    let from = 'null';
    try {
      from = new URL(request.referrer).origin;
    } catch {
      return 'not_navigation'; // a referrer that is not a URL: not a browser's own navigation
    }
    if (from !== self.location.origin) return 'cross_site';
  }
  return null;
}

const back = (scope, query) =>
  Response.redirect(new URL(`./?${query}#/documents`, scope).href, 303);

async function receiveShare(request) {
  const scope = self.registration.scope;
  const refused = refusal(request);
  if (refused === 'cross_site') {
    const from = encodeURIComponent(new URL(request.referrer).origin);
    return back(scope, `share_refused=cross_site&share_from=${from}`);
  }
  if (refused !== null) return back(scope, `share_refused=${refused}`);
  const inbox = await caches.open(SHARE_INBOX_CACHE);
  const pending = (await inbox.keys()).filter((r) => r.url.endsWith('/meta')).length;
  if (pending >= LIMITS.pending) return back(scope, 'share_refused=inbox_full');
  let form;
  try {
    form = await request.formData();
  } catch {
    return back(scope, 'share_refused=unreadable');
  }
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const cut = { title: false, text: false, url: false };
  const field = (name, key, chars) => {
    const value = form.get(name);
    const text = typeof value === 'string' ? value : '';
    if (text.length > chars) cut[key] = true;
    return text.slice(0, chars);
  };
  const files = [];
  const dropped = [];
  let bytes = 0;
  for (const value of form.getAll('share_files')) {
    if (typeof value === 'string') continue;
    const name = (value.name || `shared-${files.length + dropped.length + 1}`).slice(0, 200);
    const tooMany = files.length >= LIMITS.files;
    const tooBig = value.size > LIMITS.fileBytes || bytes + value.size > LIMITS.shareBytes;
    if (tooMany || tooBig) {
      dropped.push({ name, bytes: value.size, why: tooMany ? 'too_many' : 'too_large' });
      continue;
    }
    const key = new URL(`./__share__/${id}/file-${files.length}`, scope).href;
    await inbox.put(
      key,
      new Response(value, {
        headers: { 'content-type': value.type || 'application/octet-stream' },
      }),
    );
    bytes += value.size;
    files.push({ key, name, type: value.type || '', bytes: value.size });
  }
  const meta = {
    v: 2,
    at: Date.now(),
    via: 'share_target',
    title: field('share_title', 'title', LIMITS.titleChars),
    text: field('share_text', 'text', LIMITS.textChars),
    url: field('share_url', 'url', LIMITS.urlChars),
    files,
    dropped,
    cut,
  };
  await inbox.put(
    new URL(`./__share__/${id}/meta`, scope).href,
    new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }),
  );
  return back(scope, `share_inbox=${id}`);
}
