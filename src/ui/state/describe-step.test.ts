import { describe, expect, it } from 'vitest';
import { describeStep, resultCount } from './describe-step';

describe('describeStep', () => {
  it('U4: a conversation search says what was searched and how many results came back', () => {
    const step = describeStep(
      'conversation_search',
      { query: 'birthday' },
      true,
      'results 1–3 of 3 (page 1 of 1) for "birthday":\n[seq 4 …] my birthday is in May',
    );
    expect(step).toEqual({
      kind: 'search',
      text: 'searched your chats for "birthday" → 3 results',
    });
  });

  it('U4: a core memory edit names the block', () => {
    expect(
      describeStep('core_memory_append', { label: 'human', content: 'Likes tea' }, true, 'Saved')
        .text,
    ).toBe('updated core memory: human');
    expect(
      describeStep(
        'core_memory_replace',
        { label: 'persona', old_content: 'a', new_content: 'b' },
        true,
        'x',
      ).text,
    ).toBe('updated core memory: persona');
  });

  it('U4: empty searches and rejected steps read plainly', () => {
    expect(
      describeStep('archival_memory_search', { query: 'cats' }, true, 'No results for "cats".')
        .text,
    ).toBe('searched archival memory for "cats" → 0 results');
    const bad = describeStep(
      null,
      null,
      false,
      'Unknown function "fly"; use one of: send_message.',
    );
    expect(bad.kind).toBe('invalid');
    expect(bad.text).toBe('wrote a step Loci could not use, and was asked again');
    // The model-facing feedback is not the summary; the expanded step shows it as its detail.
    expect(bad.text).not.toContain('Unknown function');
  });

  it('U4: result counts are read from the paged result header', () => {
    expect(resultCount('results 6–10 of 37 (page 2 of 8) for "x":')).toBe(37);
    expect(resultCount('Page 9 is empty: 12 results for "x" fill 3 pages.')).toBe(12);
    expect(resultCount('Sent.')).toBeNull();
  });
});
