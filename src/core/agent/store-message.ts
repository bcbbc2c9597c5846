import type { Message } from '../model';
import type { NewMessage } from '../ports/memory-store';
import type { Tokenizer } from '../ports/tokenizer';
import { renderMessage } from '../prompts/render-context';

/** A new queue message with its `tokens` counted as it renders in the prompt. */
export function newMessage(
  draft: Omit<NewMessage, 'tokens' | 'inContext'> & { inContext?: boolean },
  tokenizer: Tokenizer,
): NewMessage {
  const full = { ...draft, inContext: draft.inContext ?? true, tokens: 0 };
  const turn = renderMessage({ ...full, seq: 0 } as Message);
  return { ...full, tokens: tokenizer.countMessage(turn.role, turn.content) };
}
