import { ESTIMATE_MARGIN } from '../tokens/estimate-tokenizer';
import type { Tokens } from '../units';

const HAN = /\p{Script=Han}/u;
/** Below U+2E80 (the first CJK radical) no code point is Han, so the regex is skipped there. */
const FIRST_HAN = 0x2e80;

/**
 * The same count as the core's `estimateTokens` (chars/3, Han ×1.5, +10 %), computed several
 * times faster on mostly non-CJK text by testing only code points that can be Han. The chunker
 * measures every sentence, gap and chunk with it, so this is most of its cost on a 5 MB file.
 */
export function estimateTokensFast(text: string): Tokens {
  let han = 0;
  let other = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < FIRST_HAN) {
      other += 1;
      continue;
    }
    const point = text.codePointAt(i) ?? code;
    if (point > 0xffff) i += 1;
    if (HAN.test(String.fromCodePoint(point))) han += 1;
    else other += 1;
  }
  return Math.ceil((han * 1.5 + other / 3) * ESTIMATE_MARGIN);
}
