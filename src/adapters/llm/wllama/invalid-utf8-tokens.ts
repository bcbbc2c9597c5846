import type { GgufVocab } from '../../../rpc/llm-api';

/** GPT-2's byte→character table, inverted: the byte each character of a byte-level token stands for. */
function charToByte(): Map<string, number> {
  const direct = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCodePoint(direct(b) ? b : 256 + extra++), b);
  return map;
}

const isContinuation = (b: number) => b >= 0x80 && b <= 0xbf;

/** The range the byte after `lead` must fall in (RFC 3629 table), or null for a byte no UTF-8 holds. */
function secondByteRange(lead: number): [number, number] | null {
  if (lead >= 0xc2 && lead <= 0xdf) return [0x80, 0xbf];
  if (lead === 0xe0) return [0xa0, 0xbf]; // below: an overlong form
  if (lead === 0xed) return [0x80, 0x9f]; // above: a surrogate
  if (lead >= 0xe1 && lead <= 0xef) return [0x80, 0xbf];
  if (lead === 0xf0) return [0x90, 0xbf]; // below: an overlong form
  if (lead >= 0xf1 && lead <= 0xf3) return [0x80, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f]; // above: past U+10FFFF
  return null; // 0xC0, 0xC1, 0xF5–0xFF
}

/**
 * Whether a token's bytes could sit inside valid UTF-8 text: continuation bytes may open it
 * (the end of a character an earlier token began) and a character may be left incomplete at its
 * end (a later token finishes it), but nothing inside may be invalid. Exported for its test.
 */
export function canBePartOfUtf8(bytes: readonly number[]): boolean {
  let i = 0;
  while (i < bytes.length && isContinuation(bytes[i]!)) i += 1; // may end an earlier character (up to 3)
  if (i > 3) return false;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const second = secondByteRange(lead);
    if (!second) return false;
    const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    for (let k = 1; k < length; k += 1) {
      const b = bytes[i + k];
      if (b === undefined) return true; // incomplete at the end: a later token may finish it
      const [lo, hi] = k === 1 ? second : [0x80, 0xbf];
      if (b < lo || b > hi) return false;
    }
    i += length;
  }
  return true;
}

/**
 * Tokens of a byte-level BPE vocabulary whose bytes can never be part of UTF-8 text: a byte no
 * UTF-8 holds (0xC0, 0xC1, 0xF5–0xFF), an overlong or surrogate form, a continuation byte after
 * ASCII inside the token. llama.cpp's grammar matches code points and decodes such bytes
 * leniently, so the grammar lets them through, and wllama then fails to serialize the text
 * (`json.exception 316`), which ends the request (ADRs 0111, 0116). Banning them costs a real
 * model nothing: no text needs them. (Across two tokens an invalid pair can still form; the
 * engine recovers from that, ADR 0116.)
 */
export function invalidUtf8Tokens(vocab: GgufVocab): number[] {
  if (vocab.model !== 'gpt2') return [];
  const table = charToByte();
  const banned: number[] = [];
  vocab.tokens.forEach((token, id) => {
    const type = vocab.types[id] ?? 1;
    if (type === 3 || type === 4) return;
    const bytes: number[] = [];
    for (const char of token) {
      const b = table.get(char);
      if (b === undefined) return; // not a byte-level token (added text): nothing to check
      bytes.push(b);
    }
    if (!canBePartOfUtf8(bytes)) banned.push(id);
  });
  return banned;
}
