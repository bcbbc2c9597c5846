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

  it('V8: "any" needs one evidence turn, "all" needs every one', () => {
    expect(evidenceInPrompt(prompt, ['Hello', 'not there'])).toEqual({ any: true, all: false });
    expect(evidenceInPrompt(prompt, [])).toEqual({ any: false, all: false });
  });
});
