import { describe, expect, it } from 'vitest';
import { diffText, type DiffOp } from './diff';

const side = (ops: DiffOp[], keep: 'added' | 'removed') =>
  ops
    .filter((op) => op.type === 'same' || op.type === keep)
    .map((op) => op.text)
    .join('');

describe('diffText', () => {
  it('U60: a replaced word shows as one removal and one addition, the rest kept', () => {
    const ops = diffText('Name: Ada. Likes tea.', 'Name: Ada. Likes coffee.');
    expect(ops).toEqual([
      { type: 'same', text: 'Name: Ada. Likes ' },
      { type: 'removed', text: 'tea' },
      { type: 'added', text: 'coffee' },
      { type: 'same', text: '.' },
    ]);
  });

  it('U60: an appended sentence is one addition', () => {
    expect(diffText('Likes tea.', 'Likes tea. Has a cat.')).toEqual([
      { type: 'same', text: 'Likes tea.' },
      { type: 'added', text: ' Has a cat.' },
    ]);
  });

  it('U60: kept + removed rebuilds the old text and kept + added the new one (seeded fuzz)', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = ['tea', 'cat', 'Ada', 'likes', '猫', '喜欢', ',', '.', '\n', ' ', '  '];
    const text = () =>
      Array.from(
        { length: Math.floor(rand() * 30) },
        () => words[Math.floor(rand() * words.length)],
      ).join(' ');
    for (let round = 0; round < 300; round++) {
      const before = text();
      const after = rand() < 0.3 ? before : text();
      for (const unit of ['word', 'line'] as const) {
        const ops = diffText(before, after, unit);
        expect(side(ops, 'removed')).toBe(before);
        expect(side(ops, 'added')).toBe(after);
        for (let k = 1; k < ops.length; k++) expect(ops[k]!.type).not.toBe(ops[k - 1]!.type);
        if (before === after && before !== '')
          expect(ops).toEqual([{ type: 'same', text: before }]);
      }
    }
  });

  it('U61: Chinese changes are located per character, not per sentence', () => {
    const ops = diffText('她喜欢喝茶。', '她喜欢喝咖啡。');
    expect(ops).toEqual([
      { type: 'same', text: '她喜欢喝' },
      { type: 'removed', text: '茶' },
      { type: 'added', text: '咖啡' },
      { type: 'same', text: '。' },
    ]);
  });

  it('U60: line mode reports whole changed lines', () => {
    const ops = diffText('a b\nc d\ne f\n', 'a b\nc x\ne f\n', 'line');
    expect(ops).toEqual([
      { type: 'same', text: 'a b\n' },
      { type: 'removed', text: 'c d\n' },
      { type: 'added', text: 'c x\n' },
      { type: 'same', text: 'e f\n' },
    ]);
  });

  it('U60: empty before or after is a pure addition or removal', () => {
    expect(diffText('', 'new')).toEqual([{ type: 'added', text: 'new' }]);
    expect(diffText('old', '')).toEqual([{ type: 'removed', text: 'old' }]);
    expect(diffText('', '')).toEqual([]);
  });
});
