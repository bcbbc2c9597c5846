import { describe, expect, it } from 'vitest';
import { sharedContentFrom } from './share-target';

describe('share target', () => {
  it('U140: shared text and url become one note with the shared title', () => {
    expect(
      sharedContentFrom(
        '?share_title=Trip&share_text=Pack%20the%20tent&share_url=https%3A%2F%2Fa.example',
      ),
    ).toEqual({ title: 'Trip', text: 'Pack the tent\n\nhttps://a.example' });
  });

  it('U140: a share without a title is a "Shared note"; a launch without a share is nothing', () => {
    expect(sharedContentFrom('?share_text=hello')).toEqual({ title: 'Shared note', text: 'hello' });
    expect(sharedContentFrom('?share_title=only%20a%20title')).toBeNull();
    expect(sharedContentFrom('')).toBeNull();
  });
});
