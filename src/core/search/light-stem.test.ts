import { describe, expect, it } from 'vitest';
import { lightStem } from './light-stem';

describe('lightStem', () => {
  it('V27: inflections of one verb share a term', () => {
    expect(new Set(['painting', 'painted', 'paint'].map(lightStem))).toEqual(new Set(['paint']));
    expect(lightStem('hiking')).toBe(lightStem('hiked'));
    expect(lightStem('researching')).toBe(lightStem('research'));
    expect(lightStem('running')).toBe(lightStem('run'));
  });

  it('V35: a four-letter verb with a silent e shares a term with its -ing and -ed forms', () => {
    expect(lightStem('hike')).toBe(lightStem('hiking'));
    expect(lightStem('hike')).toBe(lightStem('hiked'));
    expect(lightStem('make')).toBe(lightStem('making'));
    expect(lightStem('ride')).toBe(lightStem('riding'));
    expect(lightStem('love')).toBe(lightStem('loving'));
    // Only a silent e after a consonant goes: `free`, `shoe` and other four-letter words stay.
    expect(lightStem('free')).toBe('free');
    expect(lightStem('shoe')).toBe('shoe');
    expect(lightStem('park')).toBe('park');
  });

  it('V27: short words, names with capitals already folded, and non-Latin words stay whole', () => {
    expect(lightStem('sing')).toBe('sing');
    expect(lightStem('coffee')).toBe('coffee');
    expect(lightStem('jon')).toBe('jon');
    expect(lightStem('生日')).toBe('生日');
    expect(lightStem('3d')).toBe('3d');
  });

  it('V19: a noun in -ship or -ion shares a term with its root word', () => {
    expect(lightStem('mentorship')).toBe(lightStem('mentor'));
    expect(lightStem('promotion')).toBe(lightStem('promoted'));
    expect(lightStem('collaboration')).toBe(lightStem('collaborate'));
    expect(lightStem('relationship')).toBe(lightStem('related'));
    expect(lightStem('nation')).toBe('nation');
  });
});
