import type { ChatTurn } from '../../core/ports/llm-engine';

/**
 * Token ids of chat requests under one model's chat template, as the engine would prefill them:
 * the turn-cost meter compares these sequences between requests. An adapter implements it for a
 * real tokenizer (`src/adapters/tokenizer/llama3-chat-tokens.ts`: Llama 3 BPE, Llama 3 template).
 */
export interface ChatTemplateTokens {
  /** Which tokenizer and template, for reports. */
  readonly name: string;
  /** One formatted message: its header, its content and its end-of-turn token. */
  message(turn: ChatTurn): readonly number[];
  /** The header that ends every request, after which the model generates. */
  generationHeader(): readonly number[];
  /** Tokens at the start of every request (begin-of-text). */
  begin(): readonly number[];
  /** The tokens of generated text, as the engine decoded them (no end-of-turn token). */
  output(text: string): readonly number[];
  /** Tokens of a piece of text on its own. */
  count(text: string): number;
}

/** The whole request as one token sequence: begin, every message, the generation header. */
export function requestTokens(tokens: ChatTemplateTokens, messages: readonly ChatTurn[]): number[] {
  const out = [...tokens.begin()];
  for (const turn of messages) out.push(...tokens.message(turn));
  out.push(...tokens.generationHeader());
  return out;
}
