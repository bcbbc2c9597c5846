import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './markdown-plain-text';

describe('markdownToPlainText', () => {
  it('U199: headings, emphasis, links and lists read as words', () => {
    const md = [
      '## Keeping the **lamp** lit ##',
      '',
      'Trim the wick *daily* and use __clean__ paraffin, see [the log](https://example.org/log).',
      '',
      '- Check the `oil` level',
      '* [x] Wipe the ~~old~~ lens',
      '1. Record the hours',
    ].join('\n');
    expect(markdownToPlainText(md)).toBe(
      [
        'Keeping the lamp lit',
        '',
        'Trim the wick daily and use clean paraffin, see the log.',
        '',
        '• Check the oil level',
        '• Wipe the old lens',
        '1. Record the hours',
      ].join('\n'),
    );
  });

  it('U199: a table loses its pipes and delimiter row, with or without outer pipes', () => {
    const md = '| Fuel | Cans |\n|:-----|-----:|\n| Paraffin | 2 |\n\nA | B\n--|--\n1 | 2';
    const plain = markdownToPlainText(md);
    expect(plain).toBe('Fuel · Cans\nParaffin · 2\n\nA · B\n1 · 2');
    expect(plain).not.toMatch(/[|#*]/);
  });

  it('U199: quotes, rules, link definitions and images go; fenced code stays as written', () => {
    const md = [
      '> Quoted **advice**',
      '',
      '---',
      '![a gull](gull.png) on the rail',
      '[log]: https://example.org/log',
      '```',
      '# not a heading | not a table',
      '```',
    ].join('\n');
    expect(markdownToPlainText(md)).toBe(
      'Quoted advice\n\na gull on the rail\n# not a heading | not a table',
    );
  });

  it('U199: text without Markdown comes back as it was; lone marks and escapes stay readable', () => {
    expect(markdownToPlainText('The lamp is lit at dusk. 3 * 4 = 12, snake_case_name.')).toBe(
      'The lamp is lit at dusk. 3 * 4 = 12, snake_case_name.',
    );
    expect(markdownToPlainText('Price \\*not\\* bold, 50\\% off')).toBe(
      'Price *not* bold, 50% off',
    );
  });
});
