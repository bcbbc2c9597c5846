import { describe, expect, it } from 'vitest';
import type { Message } from '../../../core/model';
import {
  documentImportedText,
  memoryPressureText,
  sessionStartText,
} from '../../../core/prompts/event-copy';
import { noteText } from './note-text';

const event = (speaker: string, text: string): Message => ({
  id: 'e',
  agentId: 'a',
  seq: 1,
  role: 'event',
  speaker,
  text,
  at: 0,
  inContext: true,
  tokens: 0,
});

describe('chat notes', () => {
  it('U321: a memory-pressure alert reads as a note for the user, never the words meant for the model', () => {
    const shown = noteText(event('memory_pressure', memoryPressureText(86)));
    expect(shown).toMatch(/oldest messages will soon be summarized/);
    expect(shown).not.toMatch(/core or archival memory|archival_memory|Save anything/);
  });

  it('U321: session starts and imports say what happened in plain words; unknown kinds keep their text', () => {
    expect(noteText(event('session_start', sessionStartText(3)))).toBe(
      'New session — the first message in 3 days.',
    );
    expect(noteText(event('session_start', sessionStartText(1)))).toBe(
      'New session — the first message in a day.',
    );
    const imported = noteText(event('document_imported', documentImportedText('notes.md', 4, 900)));
    expect(imported).toBe('Imported "notes.md" into memory: 4 passages, searchable from now on.');
    expect(imported).not.toMatch(/archival_memory_search/);
    expect(noteText(event('note', 'Restored 2 chats.'))).toBe('Restored 2 chats.');
  });
});
