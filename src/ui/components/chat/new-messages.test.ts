import { describe, expect, it } from 'vitest';
import { newMessagesButton } from './new-messages';

describe('newMessagesButton (U152)', () => {
  it('U152: counts the messages after the last one seen at the bottom', () => {
    expect(newMessagesButton(['a', 'b', 'c', 'd'], 'b')).toEqual({
      count: 2,
      text: '2 new messages',
      label: '2 new messages: jump to the latest',
    });
    expect(newMessagesButton(['a', 'b'], 'a').label).toBe('1 new message: jump to the latest');
  });

  it('U152: with nothing new it offers the way back to the latest message', () => {
    expect(newMessagesButton(['a', 'b'], 'b')).toEqual({
      count: 0,
      text: 'Latest message',
      label: 'Jump to the latest message',
    });
  });

  it('U152: a seen message that was deleted counts nothing as new; none seen counts all', () => {
    expect(newMessagesButton(['a', 'c'], 'b').count).toBe(0);
    expect(newMessagesButton(['a', 'c'], null).count).toBe(2);
  });
});
