import { describe, expect, it } from 'vitest';
import { pageRange, searchRequest, type SearchForm } from './search-request';

const form = (over: Partial<SearchForm> = {}): SearchForm => ({
  text: '',
  mode: 'hybrid',
  fromDate: '',
  toDate: '',
  page: 1,
  pageSize: 10,
  ...over,
});

describe('searchRequest', () => {
  it('U56: text searches in the chosen mode, with the date range as a filter (end day inclusive)', () => {
    const r = searchRequest(
      'a1',
      ['message'],
      form({
        text: ' birthday ',
        mode: 'vector',
        fromDate: '2026-03-01',
        toDate: '2026-03-01',
        page: 2,
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok || r.value.type !== 'search') throw new Error('expected a search');
    const q = r.value.query;
    expect(q).toMatchObject({
      agentId: 'a1',
      text: 'birthday',
      mode: 'vector',
      kinds: ['message'],
      page: 2,
      pageSize: 10,
    });
    expect(q.to! - q.from!).toBe(86_400_000 - 1);
    expect(new Date(q.from!).getDate()).toBe(1);
  });

  it('U56: dates without text search by date; neither gives a sentence', () => {
    const r = searchRequest('a1', ['message'], form({ fromDate: '2026-03-01' }));
    expect(r.ok && r.value.type).toBe('date');
    expect(searchRequest('a1', ['message'], form())).toEqual({
      ok: false,
      error: 'Type something to search for, or pick dates.',
    });
    expect(
      searchRequest('a1', ['message'], form({ fromDate: '2026-03-02', toDate: '2026-03-01' })).ok,
    ).toBe(false);
  });

  it('U56: the pager text counts from the page start and shows the total', () => {
    expect(pageRange(2, 10, 10, 34)).toBe('11–20 of 34');
    expect(pageRange(4, 10, 4, 34)).toBe('31–34 of 34');
    expect(pageRange(1, 10, 0, 0)).toBe('No results');
  });
});
