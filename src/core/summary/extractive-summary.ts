/**
 * The extractive recursive summary (C12): what the queue manager writes when the model cannot
 * summarize. Pure and deterministic (the memory evaluation relies on it): the previous
 * summary's lines plus one clipped line per evicted user or assistant message, kept by priority
 * (new user lines, then earlier summary, then assistant lines; newer first within a class) until
 * `maxTokens`, printed in their original order.
 */
import type { Message } from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { speakerText } from '../text/inline-text';
import type { Chars, Tokens } from '../units';

/** Longest line one message contributes. */
export const EXTRACT_LINE_CHARS: Chars = 160;

export interface ExtractiveInput {
  previous?: string;
  messages: readonly Message[];
  tokenizer: Tokenizer;
  maxTokens: Tokens;
}

function firstSentences(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXTRACT_LINE_CHARS) return flat;
  const cut = flat.slice(0, EXTRACT_LINE_CHARS);
  const end = Math.max(
    cut.lastIndexOf('. '),
    cut.lastIndexOf('。'),
    cut.lastIndexOf('? '),
    cut.lastIndexOf('! '),
  );
  return end > EXTRACT_LINE_CHARS / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, -1)}…`;
}

interface Line {
  text: string;
  order: number;
  priority: number;
}

function lineOf(message: Message): string | null {
  if (message.role === 'user') {
    return `${message.author === undefined ? 'User' : speakerText(message.author)}: ${firstSentences(message.text)}`;
  }
  if (message.role === 'assistant' && message.toolCall?.name === 'send_message' && message.text) {
    return `${message.author === undefined ? 'Assistant' : speakerText(message.author)}: ${firstSentences(message.text)}`;
  }
  if (message.role === 'tool' && message.toolCall?.name === 'archival_memory_insert') {
    return `(saved to archival: ${firstSentences(String(message.toolCall.arguments.content ?? ''))})`;
  }
  return null;
}

export function extractiveSummary(input: ExtractiveInput): string {
  const lines: Line[] = [];
  let order = 0;
  for (const text of (input.previous ?? '').split('\n')) {
    if (text.trim() !== '') lines.push({ text: text.trim(), order: order++, priority: 1 });
  }
  for (const message of input.messages) {
    const text = lineOf(message);
    if (text) lines.push({ text, order: order++, priority: message.role === 'user' ? 0 : 2 });
  }
  const ranked = [...lines].sort((a, b) => a.priority - b.priority || b.order - a.order);
  const kept: Line[] = [];
  let tokens = 0;
  for (const line of ranked) {
    const cost = input.tokenizer.count(`${line.text}\n`);
    if (tokens + cost > input.maxTokens) continue;
    kept.push(line);
    tokens += cost;
  }
  return kept
    .sort((a, b) => a.order - b.order)
    .map((line) => line.text)
    .join('\n');
}
