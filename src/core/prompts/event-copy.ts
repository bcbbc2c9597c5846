/**
 * The text of the events that drive the loop besides user messages (seed paper §2.4): the
 * memory-pressure alert of the queue manager, the session-start event, a document import.
 * Product copy, in one place.
 */
import type { Chars } from '../units';
import { quoteInline } from '../text/inline-text';

export function memoryPressureText(percent: number): string {
  return `Memory pressure: the context is ${percent}% full. Older messages will soon be summarized and leave the context. Save anything important to core or archival memory now.`;
}

export function sessionStartText(days: number): string {
  return days === 1
    ? 'The user is back: first message in 1 day.'
    : `The user is back: first message in ${days} days.`;
}

export function documentImportedText(title: string, passages: number, chars: Chars): string {
  return `Document ${quoteInline(title)} was imported into archival memory: ${passages} passages (${chars} characters). Use archival_memory_search to read it.`;
}

/** What a Continue asks of the model (A41): the rest of its cut reply, nothing said twice. */
export const CONTINUE_TEXT =
  'Your last message was cut off at the length limit. Call send_message with only the rest of it, starting exactly where it stopped; do not repeat what you already wrote.';

/** The label an event carries in the prompt, by its kind. */
export const EVENT_LABEL: Record<string, string> = {
  memory_pressure: 'system alert',
  session_start: 'event',
  document_imported: 'event',
  note: 'event',
  continue: 'event',
};
