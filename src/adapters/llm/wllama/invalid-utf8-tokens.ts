import type { GgufVocab } from '../../../rpc/llm-api';

/** GPT-2's byte→character table, inverted: the byte each character of a byte-level token stands for. */
function charToByte(): Map<string, number> {
  const direct = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCodePoint(direct(b) ? b : 256 + extra++), b);
  return map;
}

/**
 * Tokens of a byte-level BPE vocabulary that hold a byte no UTF-8 text contains (0xC0, 0xC1,
 * 0xF5–0xFF). llama.cpp's grammar matches code points and lets such a byte through as the lead of
 * a "character", and llama-server then fails to serialize the text (`json.exception 316`), which
 * ends the request (ADR 0111). Banning them costs a real model nothing: it never needs them.
 */
export function invalidUtf8Tokens(vocab: GgufVocab): number[] {
  if (vocab.model !== 'gpt2') return [];
  const bytes = charToByte();
  const banned: number[] = [];
  vocab.tokens.forEach((token, id) => {
    const type = vocab.types[id] ?? 1;
    if (type === 3 || type === 4) return;
    for (const char of token) {
      const b = bytes.get(char);
      if (b !== undefined && (b === 0xc0 || b === 0xc1 || b >= 0xf5)) {
        banned.push(id);
        return;
      }
    }
  });
  return banned;
}
