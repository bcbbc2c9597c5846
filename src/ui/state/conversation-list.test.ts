import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../core/model';
import {
  checkTitle,
  filterByTitle,
  MAX_TITLE_LENGTH,
  sortConversations,
  titleFromMessage,
} from './conversation-list';

const conv = (id: string, title: string, updatedAt: number, createdAt = 1): Conversation => ({
  id,
  agentId: 'a1',
  title,
  createdAt,
  updatedAt,
});

describe('conversation list (U187, U188)', () => {
  it('U187: lists the most recently updated first, ties by newest creation', () => {
    const list = [
      conv('c1', 'Trip planning', 10),
      conv('c2', 'Recipes', 30),
      conv('c3', 'Books', 20, 5),
      conv('c4', 'Garden', 20, 9),
    ];
    expect(sortConversations(list).map((c) => c.id)).toEqual(['c2', 'c4', 'c3', 'c1']);
    // The input is not reordered in place.
    expect(list[0]?.id).toBe('c1');
  });

  it('U188: search by title matches every word, in any order, case and accents ignored', () => {
    const list = [
      conv('c1', 'Trip planning: Lisbon', 10),
      conv('c2', 'Café recipes', 30),
      conv('c3', 'Lisbon flat hunting', 20),
    ];
    expect(filterByTitle(list, 'lisbon').map((c) => c.id)).toEqual(['c3', 'c1']);
    expect(filterByTitle(list, 'LISBON trip').map((c) => c.id)).toEqual(['c1']);
    expect(filterByTitle(list, 'cafe').map((c) => c.id)).toEqual(['c2']);
    expect(filterByTitle(list, 'rome')).toEqual([]);
    expect(filterByTitle(list, '   ').map((c) => c.id)).toEqual(['c2', 'c3', 'c1']);
  });
});

describe('conversation titles (U189)', () => {
  it('an empty or blank title is refused with a clear message', () => {
    expect(checkTitle('')).toEqual({ ok: false, error: 'A conversation needs a title.' });
    expect(checkTitle(' \n\t ')).toEqual({ ok: false, error: 'A conversation needs a title.' });
  });

  it('a title over the limit is refused, saying how long it is and what fits', () => {
    const long = 'x'.repeat(MAX_TITLE_LENGTH + 1);
    expect(checkTitle(long)).toEqual({
      ok: false,
      error: `The title has ${MAX_TITLE_LENGTH + 1} characters; at most ${MAX_TITLE_LENGTH} fit.`,
    });
    // Counted in characters a person sees, not UTF-16 units: 80 emoji fit.
    expect(checkTitle('🌍'.repeat(MAX_TITLE_LENGTH)).ok).toBe(true);
  });

  it('a valid title is trimmed and its spaces collapsed', () => {
    expect(checkTitle('  Trip   planning\n2027 ')).toEqual({
      ok: true,
      title: 'Trip planning 2027',
    });
  });

  it("a new chat's title is its first message's first line, cut at a word", () => {
    expect(titleFromMessage('  Where should we go in May?  ')).toBe('Where should we go in May?');
    expect(titleFromMessage('\n\nFirst line\nsecond line')).toBe('First line');
    expect(
      titleFromMessage('Please help me plan a two week walking trip through the hills of Portugal'),
    ).toBe('Plan a two week walking trip through the hills…');
    expect(titleFromMessage('   ')).toBeNull();
  });

  it('U294: a title is made of the message’s meaningful words, not its greeting', () => {
    expect(titleFromMessage('Hello!')).toBeNull();
    expect(titleFromMessage('Hi there :)')).toBeNull();
    expect(titleFromMessage('Write my full wedding speech, about 600 words.')).toBe(
      'Write my full wedding speech',
    );
    expect(titleFromMessage('Hey, could you summarise the history of Rome?')).toBe(
      'Summarise the history of Rome?',
    );
    expect(titleFromMessage('history of Rome')).toBe('History of Rome');
    expect(titleFromMessage('Thanks!')).toBeNull();
  });

  it('U294: a period after a title, an abbreviation or an initial does not end the clause', () => {
    expect(titleFromMessage('I have an appointment with Dr. Lee on Monday about my knee.')).toBe(
      'I have an appointment with Dr. Lee on Monday…',
    );
    expect(titleFromMessage('Recipes with herbs, e.g. basil and thyme, for a picnic')).toBe(
      'Recipes with herbs',
    );
    expect(titleFromMessage('Notes on the essays of J. R. R. Tolkien. He wrote many.')).toBe(
      'Notes on the essays of J. R. R. Tolkien',
    );
    // A sentence that ends is still a clause.
    expect(titleFromMessage('My sister moved to Lisbon. She loves the tiles there.')).toBe(
      'My sister moved to Lisbon',
    );
  });
});
