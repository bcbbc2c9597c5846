import { describe, expect, it } from 'vitest';
import {
  readShareInbox,
  SHARE_INBOX_CACHE,
  sharedContentFrom,
  sweepShareInbox,
} from './share-target';

describe('share target', () => {
  it('U140: shared text and url become one note with the shared title', () => {
    expect(
      sharedContentFrom(
        '?share_title=Trip&share_text=Pack%20the%20tent&share_url=https%3A%2F%2Fa.example',
      ),
    ).toEqual({ title: 'Trip', text: 'Pack the tent\n\nhttps://a.example' });
  });

  it('U140: a share without a title is a "Shared note"; a launch without a share is nothing', () => {
    expect(sharedContentFrom('?share_text=hello')).toEqual({ title: 'Shared note', text: 'hello' });
    expect(sharedContentFrom('?share_title=only%20a%20title')).toBeNull();
    expect(sharedContentFrom('')).toBeNull();
  });

  /** Cache Storage as the service worker leaves it, in memory. */
  function inboxWith(entries: Record<string, Response>) {
    const map = new Map(Object.entries(entries));
    const cache = {
      match: async (key: string) => map.get(key)?.clone(),
      delete: async (key: string | Request) => map.delete(typeof key === 'string' ? key : key.url),
      keys: async () => [...map.keys()].map((k) => new Request(k)),
    };
    const storage = {
      has: async (name: string) => name === SHARE_INBOX_CACHE,
      open: async (name: string) => {
        expect(name).toBe(SHARE_INBOX_CACHE);
        return cache;
      },
    } as unknown as CacheStorage;
    return { storage, map };
  }
  const base = 'http://127.0.0.1/app/';
  const key = (id: string, rest: string) => `${base}__share__/${id}/${rest}`;

  it('U142: a file share is read out of the inbox with its text, then deleted', async () => {
    const { storage, map } = inboxWith({
      [key('abc-1', 'meta')]: Response.json({
        title: 'Trip notes',
        text: 'For the weekend',
        url: '',
        files: [
          { key: key('abc-1', 'file-0'), name: 'packing.md' },
          // Entries outside this share's folder are ignored, whatever the meta says.
          { key: key('other', 'file-0'), name: 'not-mine.txt' },
        ],
      }),
      [key('abc-1', 'file-0')]: new Response('# Packing\n\nBoots.'),
      [key('other', 'file-0')]: new Response('someone else'),
    });
    const shared = await readShareInbox('abc-1', storage, base);
    expect(shared.title).toBe('Trip notes');
    expect(shared.text).toBe('For the weekend');
    expect(shared.files?.map((f) => f.name)).toEqual(['packing.md']);
    expect(await shared.files![0]!.blob.text()).toBe('# Packing\n\nBoots.');
    expect([...map.keys()]).toEqual([key('other', 'file-0')]);
  });

  it('U142: a missing, malformed or hostile inbox entry is a sentence, not a crash', async () => {
    const { storage } = inboxWith({ [key('bad', 'meta')]: new Response('not json') });
    expect(await readShareInbox('gone', storage, base)).toMatchObject({
      problem: expect.stringContaining('no longer here'),
    });
    expect(await readShareInbox('../../etc', storage, base)).toMatchObject({
      problem: expect.stringContaining('could not be read'),
    });
    // Unreadable meta: nothing to import, and nothing thrown.
    expect(await readShareInbox('bad', storage, base)).toEqual({
      title: 'Shared files',
      text: '',
      files: [],
    });
  });

  it('U142: shares no page opened within an hour are swept; newer ones stay', async () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    const fresh = `${(now - 60_000).toString(36)}-aa`;
    const stale = `${(now - 2 * 3_600_000).toString(36)}-bb`;
    const { storage, map } = inboxWith({
      [key(fresh, 'meta')]: new Response('{}'),
      [key(stale, 'meta')]: new Response('{}'),
      [key(stale, 'file-0')]: new Response('x'),
    });
    expect(await sweepShareInbox(now, storage)).toBe(2);
    expect([...map.keys()]).toEqual([key(fresh, 'meta')]);
  });
});
