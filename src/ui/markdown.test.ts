import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('U20: renders ordinary Markdown (emphasis, lists, code, tables)', () => {
    const html = renderMarkdown(
      '**bold** and *it*\n\n- one\n- two\n\n`x < y`\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>x &lt; y</code>');
    expect(html).toContain('<td>1</td>');
  });

  it('U21: raw HTML in the source is shown as text, never as elements', () => {
    const html = renderMarkdown(
      'hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<div onclick="x()">block</div>',
    );
    expect(html).not.toMatch(/<script|<img|<div/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('U22: javascript:, data: and obfuscated schemes lose their link; http(s) links open safely', () => {
    const bad = renderMarkdown(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) [d](java%0ascript:alert(1)) [e](vbscript:x)',
    );
    expect(bad).not.toContain('<a');
    expect(bad).toContain('a');
    const good = renderMarkdown('[site](https://example.org/a?b=1) <https://example.org>');
    expect(good).toContain('href="https://example.org/a?b=1"');
    expect(good).toContain('rel="noopener noreferrer nofollow"');
    expect(good).toContain('target="_blank"');
  });

  it('U23: images are blocked and replaced by their description', () => {
    const html = renderMarkdown('![a cat](https://example.org/cat.png) ![](x" onerror="alert(1))');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image: a cat]');
    expect(html).not.toContain('onerror="');
  });

  it('U21: a code block keeps HTML as escaped text', () => {
    const html = renderMarkdown('```html\n<script>alert(1)</script>\n```');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});
