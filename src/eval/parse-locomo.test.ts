import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { evidenceIds, parseLocomo } from './parse-locomo';

const tiny = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/eval/tiny-locomo.json', import.meta.url), 'utf8'),
) as unknown;

describe('parseLocomo', () => {
  const dataset = parseLocomo(tiny, 'tiny-locomo.json');
  const conversation = dataset.conversations[0]!;

  it('V1: every turn carries its session time, turns of a session in order', () => {
    const [first, second] = conversation.turns;
    expect(new Date(first!.at).toISOString()).toBe('2024-03-03T09:05:00.000Z');
    expect(second!.at).toBeGreaterThan(first!.at);
    const d2 = conversation.turns.find((t) => t.id === 'D2:1')!;
    expect(new Date(d2.at).toISOString()).toBe('2024-04-20T18:40:00.000Z');
    expect(d2.session).toBe(2);
  });

  it("V2: a shared photo's caption is part of its turn's text", () => {
    const photo = conversation.turns.find((t) => t.id === 'D1:3')!;
    expect(photo.text).toBe(
      'Look at her! [shares a photo of a small grey cat sleeping on a red sofa]',
    );
  });

  it('V4: evidence joined with ";" is split; speakers and categories are kept', () => {
    expect(conversation.speakers).toEqual(['Ada', 'Ben']);
    const moved = conversation.questions.find((q) => q.question.startsWith('Where did'))!;
    expect(moved.evidence).toEqual(['D2:3', 'D2:4']);
    expect(conversation.questions.map((q) => q.category)).toEqual([4, 1, 4, 2, 4, 5]);
    expect(evidenceIds(['D8:6; D9:17', 'D8:6', 3])).toEqual(['D8:6', 'D9:17']);
  });

  it('V1: a malformed session time is a fault that names where it is', () => {
    const bad = JSON.parse(JSON.stringify(tiny)) as [{ conversation: Record<string, unknown> }];
    bad[0].conversation.session_2_date_time = 'sometime in April';
    expect(() => parseLocomo(bad, 'bad.json')).toThrow(AppError);
    expect(() => parseLocomo(bad, 'bad.json')).toThrow(/session_2_date_time/);
    expect(() => parseLocomo({}, 'bad.json')).toThrow(/not a list of samples/);
  });
});
