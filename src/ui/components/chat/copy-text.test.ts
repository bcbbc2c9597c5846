import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_CHARS, renderMarkdownWith } from '../../markdown';
import { copyText } from './copy-text';

/** The text a browser would show for `html` (tags dropped, entities of the plain text undone). */
const shownText = (html: string): string =>
  html
    .replace(/<\/?(?:strong|em|code|a)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const shown = (html: string) => ({ text: shownText(html), plain: html.includes('md-plain') });

describe('copyText', () => {
  it('X180: a 1 MB reply shows only its first part on the page, yet Copy copies all of it', () => {
    const text = `Message 1. ${'All the words of a long letter. '.repeat(32_768)}The very end.`;
    const html = renderMarkdownWith(text, (h) => h);
    const body = shown(html);
    expect(body.plain).toBe(true);
    expect(body.text).not.toContain('The very end.');
    expect(body.text.length).toBeLessThan(MAX_SHOWN_CHARS + 1_000);
    const copied = copyText({ role: 'assistant', text }, body);
    expect(copied).toBe(text.trim());
    expect(copied.length).toBeGreaterThan(1_000_000);
    expect(copied).not.toContain('Shown as plain text');
  });

  it('X180: the user’s own long message is copied whole', () => {
    const text = `${'abc '.repeat(100_000)}tail`;
    expect(copyText({ role: 'user', text }, null)).toBe(text);
  });

  it('U163: a formatted reply is copied as the reader sees it, not as Markdown', () => {
    const text = 'Drink **water**.';
    const html = renderMarkdownWith(text, (h) => h);
    expect(copyText({ role: 'assistant', text }, shown(html))).toBe('Drink water.');
  });
});
