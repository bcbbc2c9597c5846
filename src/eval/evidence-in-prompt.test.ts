import { describe, expect, it } from 'vitest';
import { evidenceInPrompt } from './evidence-in-prompt';

describe('evidenceInPrompt', () => {
  const prompt =
    'system…\n- [recall 2024-03-03 user] I adopted a grey kitten\n  called Pixel.\nBen: Hello';

  it('V7: a turn counts when its whole text is in the prompt, whatever the line wrapping', () => {
    expect(evidenceInPrompt(prompt, ['I adopted a grey kitten called Pixel.'])).toEqual({
      any: true,
      all: true,
    });
  });

  it('V7: a clipped or paraphrased turn does not count', () => {
    expect(evidenceInPrompt(prompt, ['I adopted a grey kitten called Pixel yesterday.']).any).toBe(
      false,
    );
  });

  it('V7: a reply counts when the queue holds it as a JSON-escaped send_message argument', () => {
    const said = 'She said "yes"\nand left.';
    const queued = JSON.stringify({ function: 'send_message', arguments: { message: said } });
    expect(evidenceInPrompt(`system…\n${queued}`, [said]).any).toBe(true);
    expect(evidenceInPrompt(`system…\n${queued}`, ['She said "no"']).any).toBe(false);
  });

  it('V8: "any" needs one evidence turn, "all" needs every one', () => {
    expect(evidenceInPrompt(prompt, ['Hello', 'not there'])).toEqual({ any: true, all: false });
    expect(evidenceInPrompt(prompt, [])).toEqual({ any: false, all: false });
  });
});
