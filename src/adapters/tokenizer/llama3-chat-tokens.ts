/**
 * Token ids of chat requests under the Llama 3 chat template, with the real Llama 3 BPE
 * (`llama3-tokenizer-js`): `<|begin_of_text|>`, then per message
 * `<|start_header_id|>role<|end_header_id|>\n\n content <|eot_id|>`, then the generation header
 * `<|start_header_id|>assistant<|end_header_id|>\n\n` — the layout web-llm's Llama 3 conversation
 * template and llama.cpp produce. Special tokens split the text before BPE runs, so each message
 * is tokenized on its own; inside a message, text is cut after each run of newlines (a pre-token
 * boundary of the Llama 3 split pattern), so each line is tokenized once and cached.
 */
import llama3Tokenizer from 'llama3-tokenizer-js';
import type { ChatTemplateTokens } from '../../eval/turn-cost/chat-template-tokens';
import type { ChatTurn } from '../../core/ports/llm-engine';

const special = (name: string) => llama3Tokenizer.getSpecialTokenId(`<|${name}|>`);
const BEGIN = special('begin_of_text');
const START_HEADER = special('start_header_id');
const END_HEADER = special('end_header_id');
const END_OF_TURN = special('eot_id');
/** Segments kept before the cache starts over (a few MB at most). */
const CACHE_SEGMENTS = 200_000;

/** Cuts `text` after every newline that is followed by something other than a newline. */
export function segmentsOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length - 1; i += 1) {
    if (text[i] === '\n' && text[i + 1] !== '\n' && text[i + 1] !== '\r') {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

export function createLlama3ChatTokens(): ChatTemplateTokens {
  const cache = new Map<string, readonly number[]>();
  const encodeSegment = (segment: string): readonly number[] => {
    let ids = cache.get(segment);
    if (!ids) {
      if (cache.size >= CACHE_SEGMENTS) cache.clear();
      ids = llama3Tokenizer.encode(segment, { bos: false, eos: false });
      cache.set(segment, ids);
    }
    return ids;
  };
  const encode = (text: string): number[] => {
    const out: number[] = [];
    for (const segment of segmentsOf(text)) out.push(...encodeSegment(segment));
    return out;
  };
  const header = (role: string): number[] => [START_HEADER, ...encodeSegment(role), END_HEADER];
  const generation = [...header('assistant'), ...encodeSegment('\n\n')];
  return {
    name: 'llama3 chat template (llama3-tokenizer-js)',
    message: (turn: ChatTurn) => [
      ...header(turn.role),
      ...encode(`\n\n${turn.content}`),
      END_OF_TURN,
    ],
    generationHeader: () => generation,
    begin: () => [BEGIN],
    output: (text: string) => encode(text),
    count: (text: string) => encode(text).length,
  };
}
