import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN_DEPTH, markdownToHtml, renderMarkdown, renderMarkdownWith } from './markdown';

describe('markdownToHtml (the first layer)', () => {
  it('U20: renders ordinary Markdown (emphasis, lists, code, tables)', () => {
    const html = markdownToHtml(
      '**bold** and *it*\n\n- one\n- two\n\n`x < y`\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>x &lt; y</code>');
    expect(html).toContain('<td>1</td>');
  });

  it('U21: raw HTML in the source is shown as text, never as elements', () => {
    const html = markdownToHtml(
      'hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<div onclick="x()">block</div>',
    );
    expect(html).not.toMatch(/<script|<img|<div/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('U22: javascript:, data: and obfuscated schemes lose their link; http(s) links open safely', () => {
    const bad = markdownToHtml(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) [d](java%0ascript:alert(1)) [e](vbscript:x)',
    );
    expect(bad).not.toContain('<a');
    expect(bad).toContain('a');
    const good = markdownToHtml('[site](https://example.org/a?b=1) <https://example.org>');
    expect(good).toContain('href="https://example.org/a?b=1"');
    expect(good).toContain('rel="noopener noreferrer nofollow"');
    expect(good).toContain('target="_blank"');
  });

  it('U23: images are blocked and replaced by their description', () => {
    const html = markdownToHtml('![a cat](https://example.org/cat.png) ![](x" onerror="alert(1))');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image: a cat]');
    expect(html).not.toContain('onerror="');
  });

  it('U21: a code block keeps HTML as escaped text', () => {
    const html = markdownToHtml('```html\n<script>alert(1)</script>\n```');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});

describe('renderMarkdown', () => {
  it('U24: the sanitizer fails closed: without DOMPurify (Node) the message is plain text', async () => {
    const { default: DOMPurify } = await import('dompurify');
    expect(DOMPurify.isSupported).toBe(false);
    const html = renderMarkdown('**bold** <b onclick="x()">hi</b>\n[a](https://example.org)');
    expect(html).not.toMatch(/<(strong|b|a)[\s>]/);
    expect(html).toContain('**bold** &lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt;');
    expect(html).toMatch(/^<p class="md-plain">/);
  });
});

describe('markdown nesting (X160)', () => {
  const hostile: Array<[string, string]> = [
    ['quotes', '>'.repeat(5000) + ' deep'],
    ['quotes with spaces', '> '.repeat(3000) + 'deep'],
    ['list items', '- '.repeat(3000) + 'deep'],
    ['ordered items', '1. '.repeat(2000) + 'deep'],
    ['quotes in lists', '> - '.repeat(1500) + 'deep'],
    [
      'indented lists',
      Array.from({ length: 90 }, (_, i) => ' '.repeat(i * 2) + '- deep').join('\n'),
    ],
    ['emphasis runs', '*'.repeat(5000) + 'deep' + '*'.repeat(5000)],
  ];
  for (const [name, source] of hostile) {
    it(`X160: ${name} nested thousands deep show as plain text with a note, quickly`, () => {
      const started = performance.now();
      const html = renderMarkdownWith(source, (h) => h);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(html).toContain('<p class="md-note">Shown as plain text');
      expect(html).toContain('deep');
      expect(html).not.toContain('<blockquote');
    });
  }

  it('X160: nesting up to the limit still renders as Markdown', () => {
    const html = renderMarkdownWith('>'.repeat(MAX_MARKDOWN_DEPTH) + ' ok', (h) => h);
    expect(html).toContain('<blockquote>');
    expect(html).not.toContain('md-note');
  });

  it('X160: a renderer that throws gives the message as plain text, not an exception', () => {
    const html = renderMarkdownWith('a *reply* <b>', () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(html).toBe(
      '<p class="md-note">Shown as plain text: it could not be formatted.</p><p class="md-plain">a *reply* &lt;b&gt;</p>',
    );
  });
});

describe('long messages (X172)', () => {
  it('X172 (item 3): a 1 MB reply shows its first 20,000 characters as plain text, saying so, fast', () => {
    const started = performance.now();
    const html = renderMarkdownWith('word '.repeat(200_000), (h) => h);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(html).toContain(
      'Shown as plain text: it is too long to format; the first 20,000 of its 1,000,000 characters are shown.',
    );
    expect(html.length).toBeLessThan(21_000);
  });
});
