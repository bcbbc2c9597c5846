/*
 * Loci's Web Share Target for files (ADR 0085), imported into the generated service worker.
 * The installed app receives shares as a POST of multipart/form-data to ./share-target. A static
 * site can only answer that here: the files and text go to a Cache Storage inbox, and the page
 * is opened at ./?share_inbox=<id>#/documents, where the Documents screen imports them.
 * Nothing leaves the device.
 */
/* global self, caches, Response, URL */
const SHARE_INBOX_CACHE = 'loci-share-inbox';

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'POST') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.endsWith('/share-target')) return;
  event.respondWith(receiveShare(request));
});

async function receiveShare(request) {
  const scope = self.registration.scope;
  let form;
  try {
    form = await request.formData();
  } catch {
    return Response.redirect(new URL('./?share_inbox=unreadable#/documents', scope).href, 303);
  }
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const inbox = await caches.open(SHARE_INBOX_CACHE);
  const files = [];
  for (const value of form.getAll('share_files')) {
    if (typeof value === 'string') continue;
    const key = new URL(`./__share__/${id}/file-${files.length}`, scope).href;
    await inbox.put(
      key,
      new Response(value, {
        headers: { 'content-type': value.type || 'application/octet-stream' },
      }),
    );
    files.push({ key, name: value.name || `shared-${files.length + 1}`, type: value.type || '' });
  }
  const field = (name) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const meta = {
    title: field('share_title'),
    text: field('share_text'),
    url: field('share_url'),
    files,
  };
  await inbox.put(
    new URL(`./__share__/${id}/meta`, scope).href,
    new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }),
  );
  return Response.redirect(new URL(`./?share_inbox=${id}#/documents`, scope).href, 303);
}
