import type { Message } from '../model';

/**
 * Whether a message holds text a person sees in the chat (R19): a user message, or a reply the
 * agent sent with `send_message`. Other steps carry no visible text (their call is the step
 * log), and an invalid model output echoed back to the model is not a reply; neither is a
 * memory worth finding, so search never indexes them. Empty text is never indexed.
 */
export function hasVisibleText(message: Message): boolean {
  if (message.text.trim() === '') return false;
  return message.role !== 'assistant' || message.toolCall?.name === 'send_message';
}
