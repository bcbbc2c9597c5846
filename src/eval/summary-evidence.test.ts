import { describe, expect, it } from 'vitest';
import { SUMMARY_EVIDENCE_CHARS, evidenceInSummary } from './summary-evidence';

describe('evidenceInSummary', () => {
  const turn =
    'I finally adopted a kitten last Saturday. Her name is Biscuit and she sleeps on my keyboard all day long.';

  it('V39: a turn counts when the summary holds it whole, across line breaks and spacing', () => {
    expect(evidenceInSummary(`Earlier:\nMel: ${turn.replace('Her ', 'Her\n ')}`, turn)).toBe(true);
    expect(evidenceInSummary('Mel: Hi!', 'Hi!')).toBe(true);
  });

  it(`V39: a clipped line or one sentence counts when ${SUMMARY_EVIDENCE_CHARS} characters of the turn are there`, () => {
    expect(evidenceInSummary(`Mel: ${turn.slice(0, 60)}…`, turn)).toBe(true);
    expect(
      evidenceInSummary('Her name is Biscuit and she sleeps on my keyboard all day', turn),
    ).toBe(true);
  });

  it('V39: a paraphrase, a short shared phrase or an empty summary does not count', () => {
    expect(evidenceInSummary('Mel adopted a kitten called Biscuit.', turn)).toBe(false);
    expect(evidenceInSummary('Mel: I finally adopted a kitten', turn)).toBe(false);
    expect(evidenceInSummary('', turn)).toBe(false);
    expect(evidenceInSummary('Mel: Hi there', 'Hi!')).toBe(false);
  });
});
