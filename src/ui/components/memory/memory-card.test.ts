import { describe, expect, it } from 'vitest';
import { memoryCard } from './memory-card';
import {
  conversationLabel,
  renderArchivalMemory,
  renderRecallMemory,
  passageSourceLabel,
} from '../../../core/prompts/render-context';
import type { Message, Passage } from '../../../core/model';

describe('memoryCard (U180)', () => {
  it('reads who said a recall line and when, as a human date, with the text unquoted', () => {
    const message = {
      id: 'm1',
      role: 'user',
      author: 'Sam',
      text: 'My cat is "Miso"\nand she is 3.',
      at: Date.UTC(2026, 2, 4, 12),
    } as unknown as Message;
    expect(memoryCard(renderRecallMemory(message))).toEqual({
      who: 'Sam',
      when: '4 March 2026',
      text: 'My cat is "Miso"\nand she is 3.',
    });
  });

  it('A23: says which conversation a recalled message was said in', () => {
    const message = {
      id: 'm1',
      role: 'user',
      author: 'Sam, Jr.',
      text: 'My sister Mia lives in Lisbon.',
      at: Date.UTC(2026, 2, 4, 12),
    } as unknown as Message;
    expect(
      memoryCard(renderRecallMemory(message, conversationLabel('Trip "2027"] plans'))),
    ).toEqual({
      who: 'Sam, Jr.',
      when: '4 March 2026',
      source: 'In “Trip "2027"] plans”',
      text: 'My sister Mia lives in Lisbon.',
    });
    expect(memoryCard(renderRecallMemory(message, conversationLabel(null))).source).toBe(
      'This conversation',
    );
    expect(memoryCard(renderRecallMemory(message, conversationLabel(undefined))).source).toBe(
      'Another conversation',
    );
  });

  it('names a role in words when no author is stored', () => {
    const message = { id: 'm2', role: 'assistant', text: 'Hi', at: Date.UTC(2026, 11, 1) };
    expect(memoryCard(renderRecallMemory(message as unknown as Message)).who).toBe('Assistant');
  });

  it('gives a document passage its title and passage number, without the id', () => {
    const passage = {
      id: 'passage_0fb3',
      source: { type: 'document', documentId: 'd1', chunk: 2 },
    } as unknown as Passage;
    const line = renderArchivalMemory(
      'passage_0fb3',
      'Rain falls.',
      passageSourceLabel(passage, 'Weather "notes".md'),
    );
    const card = memoryCard(line);
    expect(card).toEqual({
      source: 'Document “Weather "notes".md”, passage 3',
      text: 'Rain falls.',
    });
    expect(JSON.stringify(card)).not.toContain('passage_0fb3');
  });

  it('shows a line in any other form as it is', () => {
    expect(memoryCard('persona: likes tea')).toEqual({ text: 'persona: likes tea' });
    expect(memoryCard('[p:x] saved note: "broken')).toEqual({ text: '[p:x] saved note: "broken' });
  });
});
