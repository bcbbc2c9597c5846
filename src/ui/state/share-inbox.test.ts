import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARE_INBOX_CACHE, ShareInbox } from './share-inbox';
import { SHARE_EXPIRY_MS, SHARE_LIMITS } from './share-limits';

/** Cache Storage in memory, as the service worker and the page see it. */
function memoryCaches() {
  const map = new Map<string, Response>();
  const cache = {
    match: async (key: string) => map.get(key)?.clone(),
    put: async (key: string, response: Response) => void map.set(key, response),
    delete: async (key: string | Request) => map.delete(typeof key === 'string' ? key : key.url),
    keys: async () => [...map.keys()].map((k) => new Request(k)),
  };
  const storage = {
    has: async (name: string) => name === SHARE_INBOX_CACHE && map.size > 0,
    open: async (name: string) => {
      expect(name).toBe(SHARE_INBOX_CACHE);
      return cache;
    },
  } as unknown as CacheStorage;
  return { storage, map };
}

const base = 'http://127.0.0.1/app/';
const key = (id: string, rest: string) => `${base}__share__/${id}/${rest}`;
const NOW = 1_790_000_000_000;
const idAt = (at: number, tail = 'abcd') => `${at.toString(36)}-${tail}`;

describe('share inbox (U200–U205)', () => {
  it('U202: the service worker and the page cap shares with the same limits', () => {
    const sw = readFileSync('public/share-target-sw.js', 'utf8');
    const block = /const LIMITS = (\{[\s\S]*?\});/.exec(sw)?.[1] ?? '';
    const limits = new Function(`return ${block}`)() as Record<string, number>;
    expect(limits).toEqual({ ...SHARE_LIMITS });
  });

  it('U201: a link share waits in the inbox, cut to the limits, with what was cut', async () => {
    const { storage } = memoryCaches();
    const inbox = new ShareInbox(storage, base);
    const id = await inbox.addText(
      { title: 'T'.repeat(60_000), text: 'x'.repeat(SHARE_LIMITS.textChars + 5), url: '' },
      NOW,
    );
    expect(typeof id).toBe('string');
    const [item] = await inbox.list(NOW);
    expect(item?.via).toBe('link');
    expect(item?.title.length).toBe(SHARE_LIMITS.titleChars);
    expect(item?.text.length).toBe(SHARE_LIMITS.textChars);
    expect(item?.cut).toEqual({ title: true, text: true, url: false });
  });

  it('U202: once the inbox holds its limit, a new share is refused', async () => {
    const { storage } = memoryCaches();
    const inbox = new ShareInbox(storage, base);
    for (let i = 0; i < SHARE_LIMITS.pending; i += 1)
      expect(await inbox.addText({ title: `s${i}`, text: 'hi', url: '' }, NOW + i)).not.toBe(
        'inbox_full',
      );
    expect(await inbox.addText({ title: 'one more', text: 'hi', url: '' }, NOW)).toBe('inbox_full');
    expect((await inbox.list(NOW)).length).toBe(SHARE_LIMITS.pending);
  });

  it('U205: a share older than a day is removed with its files; newer ones stay', async () => {
    const { storage, map } = memoryCaches();
    const old = idAt(NOW - SHARE_EXPIRY_MS - 1);
    const fresh = idAt(NOW - 1000, 'ef01');
    for (const [id, at] of [
      [old, NOW - SHARE_EXPIRY_MS - 1],
      [fresh, NOW - 1000],
    ] as const) {
      map.set(
        key(id, 'meta'),
        Response.json({
          at,
          title: id,
          files: [{ key: key(id, 'file-0'), name: 'a.md', bytes: 3 }],
        }),
      );
      map.set(key(id, 'file-0'), new Response('abc'));
    }
    const inbox = new ShareInbox(storage, base);
    expect((await inbox.list(NOW)).map((i) => i.id)).toEqual([fresh]);
    expect([...map.keys()].some((k) => k.includes(old))).toBe(false);
  });

  it('U202: hostile records: other shares’ files, bad ids, non-JSON and odd types are never used', async () => {
    const { storage, map } = memoryCaches();
    const mine = idAt(NOW - 10);
    const other = idAt(NOW - 20, 'ffff');
    map.set(
      key(mine, 'meta'),
      Response.json({
        at: NOW - 10,
        title: { toString: 'x' },
        text: 42,
        via: 'link',
        files: [
          { key: key(mine, 'file-0'), name: 'notes.md', bytes: -5 },
          { key: key(other, 'file-0'), name: 'not-mine.txt' },
          'junk',
          null,
        ],
        dropped: [{ name: 'big.pdf', bytes: 9e9, why: 'too_large' }],
      }),
    );
    map.set(key(mine, 'file-0'), new Response('# Notes'));
    map.set(key(other, 'file-0'), new Response('someone else'));
    map.set(key('bad', 'meta'), new Response('not json'));
    map.set(key('..%2F..', 'meta'), Response.json({ title: 'escape' }));
    const inbox = new ShareInbox(storage, base);
    const items = await inbox.list(NOW);
    expect(items.map((i) => i.id)).toEqual([mine]);
    const item = items[0]!;
    expect(item).toMatchObject({ title: '', text: '', via: 'link' });
    expect(item.files).toEqual([
      { key: key(mine, 'file-0'), name: 'notes.md', type: '', bytes: 0 },
    ]);
    expect(item.dropped).toEqual([{ name: 'big.pdf', bytes: 9e9, why: 'too_large' }]);
    const files = await inbox.files(item);
    expect(files.map((f) => f.name)).toEqual(['notes.md']);
    expect(await files[0]!.blob.text()).toBe('# Notes');
  });

  it('U205: the sweep deletes orphaned files once the service worker can no longer be writing', async () => {
    const { storage, map } = memoryCaches();
    const writing = idAt(NOW - 1000);
    const orphan = idAt(NOW - 60 * 60 * 1000, 'dead');
    map.set(key(writing, 'file-0'), new Response('in progress'));
    map.set(key(orphan, 'file-0'), new Response('left behind'));
    const inbox = new ShareInbox(storage, base);
    expect(await inbox.sweep(NOW)).toBe(1);
    expect([...map.keys()]).toEqual([key(writing, 'file-0')]);
  });

  it('U204: dismissing removes the share and its files', async () => {
    const { storage, map } = memoryCaches();
    const id = idAt(NOW);
    map.set(key(id, 'meta'), Response.json({ at: NOW, files: [] }));
    map.set(key(id, 'file-0'), new Response('x'));
    await new ShareInbox(storage, base).remove(id);
    expect(map.size).toBe(0);
  });
});
