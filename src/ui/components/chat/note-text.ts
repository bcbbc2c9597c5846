/**
 * What a small note in the chat says to the user about an event the loop recorded for the model
 * (U321, ADR 0203): the event's own text is written for the model ("Save
 * anything important to core or archival memory now"), so the chat says what it means for the
 * person reading. Unknown kinds show their text as it is.
 */
import type { Message } from '../../../core/model';

const DOCUMENT_IMPORTED = /^Document (.+) was imported into archival memory: (\d+) passages?/;
const SESSION_START = /first message in (\d+) days?/;

export function noteText(message: Message): string {
  switch (message.speaker) {
    case 'memory_pressure':
      return 'This chat is nearly full: its oldest messages will soon be summarized to make room. Nothing is lost — they stay searchable in memory.';
    case 'session_start': {
      const days = Number(SESSION_START.exec(message.text)?.[1] ?? NaN);
      if (!Number.isFinite(days)) return message.text;
      return days === 1
        ? 'New session — the first message in a day.'
        : `New session — the first message in ${days} days.`;
    }
    case 'document_imported': {
      const found = DOCUMENT_IMPORTED.exec(message.text);
      if (!found) return message.text;
      const passages = Number(found[2]);
      return `Imported ${found[1]} into memory: ${passages} ${passages === 1 ? 'passage' : 'passages'}, searchable from now on.`;
    }
    default:
      return message.text;
  }
}
