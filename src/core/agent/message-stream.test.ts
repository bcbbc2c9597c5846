import { describe, expect, it } from 'vitest';
import { pick, seededRandom } from '../../testing/seeded-random';
import { createMessageStream } from './message-stream';
import { partialMessage } from './partial-message';

/** JSON-escaped fragments a message may contain, including escapes a piece may split. */
const FRAGMENTS = [
  'plain words ',
  '我的生日',
  '😀',
  '\\ud83d\\ude00',
  '\\u00e9',
  '\\n',
  '\\"quoted\\"',
  '\\\\',
  '\\/',
  '\\t',
  '\\x',
  '\\u12',
  ' "function": "other" ',
  '"message": "inner',
  '\u2028',
  '\ud83d',
];

function randomMessage(random: () => number): string {
  let text = '';
  const n = Math.floor(random() * 12);
  for (let i = 0; i < n; i += 1) text += pick(random, FRAGMENTS);
  return text;
}

const SPACES = ['', ' ', '\n  ', '\t', '\u00a0'];

/** A step, well-formed or not, in the shapes models and hostile servers produce. */
function randomStep(random: () => number): string {
  const sp = () => pick(random, SPACES);
  const fn = pick(random, [
    'send_message',
    'send_message',
    'send_message',
    'core_memory_append',
    'send_messages',
    'send',
  ]);
  const message = randomMessage(random);
  const close = random() < 0.8 ? '"' : '';
  const shapes = [
    `{${sp()}"thinking"${sp()}:${sp()}"x"${sp()},${sp()}"function"${sp()}:${sp()}"${fn}"${sp()},${sp()}"arguments"${sp()}:${sp()}{${sp()}"message"${sp()}:${sp()}"${message}${close}${sp()}},"request_heartbeat":false}`,
    `{"arguments":{"message":"early"},"function":"${fn}","arguments":{"message":"${message}${close}}}`,
    `{"function" "${fn}","function":"${fn}","arguments":{"message" : "${message}${close}}}`,
    `{"thinking":"the \\"function\\": \\"send_message\\" key","function":"${fn}","arguments":{"text":"a","message":"${message}${close}}}`,
    `"function":"function":"${fn}","arguments":"message":"${message}`,
    `{"function":"${fn}"${sp()}"arguments":${sp()}"message"${sp()}x"message":"${message}${close}}`,
    `garbage ${message} "function":${sp()}"${fn}" "arguments" "message":"${message}`,
  ];
  return pick(random, shapes);
}

/** Splits `text` at random code-unit boundaries (surrogate pairs and escapes may split). */
function randomPieces(random: () => number, text: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size =
      random() < 0.5 ? 1 + Math.floor(random() * 3) : 1 + Math.floor(random() * text.length);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function checkSeed(seed: number): void {
  const random = seededRandom(seed);
  const step = randomStep(random);
  const stream = createMessageStream();
  let prefix = '';
  let last: string | null = null;
  for (const piece of randomPieces(random, step)) {
    prefix += piece;
    const { text, grew } = stream.push(piece);
    const expected = partialMessage(prefix);
    expect(text, `seed ${seed}, prefix ${JSON.stringify(prefix)}`).toBe(expected);
    expect(grew, `seed ${seed}`).toBe(text !== last && !(text === null && last === null));
    last = text;
  }
}

describe('createMessageStream', () => {
  it('E80 A9: gives the same text as a from-scratch read after every piece (2,000 seeded chunkings)', () => {
    for (let seed = 1; seed <= 2_000; seed += 1) checkSeed(seed);
  });

  it('E80: an escape and a surrogate pair split across pieces come out whole', () => {
    const stream = createMessageStream();
    const pieces = ['{"function":"send_message","arguments":{"message":"caf\\', 'u00', 'e9 \ud83d'];
    const texts = pieces.map((p) => stream.push(p).text);
    expect(texts).toEqual(['caf', 'caf', 'café \ud83d']);
    // A lone escaped half is shown as it is, exactly as the one-shot reader shows it.
    expect(stream.push('\ude00 \\ud83d').text).toBe('café 😀 \ud83d');
    expect(stream.push('\\ude00"}}').text).toBe('café 😀 😀');
    // Closed: later pieces change nothing.
    expect(stream.push('"message":"more"').grew).toBe(false);
  });

  it('E80: another tool gives no text, and reset starts a new step', () => {
    const stream = createMessageStream();
    expect(stream.push('{"function":"core_memory_append","arguments":{"message":"x"}}').text).toBe(
      null,
    );
    stream.reset();
    expect(stream.push('{"function":"send_message","arguments":{"message":"hi').text).toBe('hi');
  });

  it('E80: a 2 MB message in 1-character pieces keeps only a bounded tail (linear in all)', () => {
    const stream = createMessageStream();
    stream.push('{"function":"send_message","arguments":{"message":"');
    const piece = 'a';
    let text: string | null = null;
    for (let i = 0; i < 2_000_000; i += 1) text = stream.push(piece).text;
    expect(text?.length).toBe(2_000_000);
  });
});
