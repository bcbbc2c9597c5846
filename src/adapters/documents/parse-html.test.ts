import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../core/documents/chunk';
import { fixturePath } from './fixture-path';
import { parseHtml } from './parse-html';

const hostile = parseHtml(readFileSync(fixturePath('hostile.html'), 'utf8'), 'hostile.html');

describe('parseHtml', () => {
  it('D2: nothing from scripts, styles, templates, comments, SVG, iframes or attributes survives', () => {
    const leaks = ['LEAK', 'alert', 'script', 'onerror', 'onclick', 'javascript:', 'http', 'STYLE'];
    for (const leak of leaks) expect(hostile.text).not.toContain(leak);
    // The only "<" is the decoded &lt; of the last paragraph.
    expect(hostile.text.match(/</g)).toHaveLength(1);
  });

  it('X167 (item 7): unclosed svg or math ends at the next HTML block, as in a browser; the rest is kept', () => {
    const paragraphs = Array.from({ length: 45 }, (_, i) => `<p>Paragraph ${i + 1}.</p>`);
    paragraphs.splice(18, 0, '<svg viewBox="0 0 1 1"><circle r="1"><title>icon</title>');
    const doc = parseHtml(`<html><body>${paragraphs.join('\n')}</body></html>`, 'f.html');
    for (let i = 1; i <= 45; i += 1) expect(doc.text).toContain(`Paragraph ${i}.`);
    const math = parseHtml(
      '<p>a</p><math><mi>x</mi><div>after math</div><span>and on</span>',
      'm.html',
    );
    expect(math.text).toContain('after math');
    expect(math.text).toContain('and on');
    expect(math.text).not.toContain('x');
    // A stray end tag ends nothing it does not match; inside a template nothing shows (as in a browser).
    const stray = parseHtml(
      '<p>one</div></svg></math>two</p><template><p>hidden</template>three',
      's.html',
    );
    expect(stray.text).toMatch(/^one\s*two\s*three$/);
  });

  it('X168 (item 3): 30,000 unclosed dropped tags and as many stray end tags parse in linear time', () => {
    const hostile = '<object>x'.repeat(30_000) + '</p>'.repeat(30_000) + '<p>after</p>';
    const started = performance.now();
    parseHtml(hostile, 'h.html');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('D2: entities are decoded; unknown names stay as written', () => {
    expect(hostile.title).toBe('Recipe: Lemon & Thyme Cake');
    expect(hostile.text).toContain('A bright cake for late summer — serves eight.');
    expect(hostile.text).toContain('3 eggs & 150 g sugar');
    expect(hostile.text).toContain('Zest of 2 lemons, ‘unwaxed’');
    expect(hostile.text).toContain('Bake at 180°C for 40 minutes.');
    expect(hostile.text).toContain('5 < 6 and 7 > 3 stays.');
    expect(parseHtml('<p>&unknown; &amp &ampx</p>', 'x.html').text).toBe('&unknown; & &ampx');
  });

  it('D3: headings open sections with their nesting; blocks become line and paragraph breaks', () => {
    expect(hostile.sections.map((s) => s.headingPath)).toEqual([
      ['Lemon & Thyme Cake'],
      ['Lemon & Thyme Cake', 'Ingredients'],
      ['Lemon & Thyme Cake', 'Method'],
    ]);
    for (const s of hostile.sections) expect(hostile.text.slice(s.start, s.end)).toBe(s.text);
    expect(hostile.sections[1]?.text).toBe(
      'Ingredients\n\n200 g flour\n3 eggs & 150 g sugar\nZest of 2 lemons, ‘unwaxed’',
    );
    expect(hostile.text).toContain(
      'Beat the eggs with the sugar until pale. Fold in the flour, then the zest.',
    );
    expect(hostile.text).toContain('\n\n  keep   this\n    spacing\n\n');
    expect(parseHtml('<p>a\n   b\t\tc</p>', 'x.html').text).toBe('a b c');
  });

  it('D2: an unclosed script swallows the rest instead of leaking it; a stray < is text', () => {
    const d = parseHtml('<p>a < b</p><script>alert(1)</scr', 'x.html');
    expect(d.text).toBe('a < b');
    expect(parseHtml('<p>x</p><!-- never closed <p>y</p>', 'x.html').text).toBe('x');
  });

  it('D2: attribute values containing > do not end the tag early', () => {
    expect(
      parseHtml('<img alt="1 > 0" onerror="alert(1)"><p title=\'a>b\'>ok</p>', 'x.html').text,
    ).toBe('ok');
  });

  it('D2: numeric references map C1 to Windows-1252 and invalid code points to U+FFFD', () => {
    expect(parseHtml('<p>&#150; &#0; &#x110000; &#128512;</p>', 'x.html').text).toBe(
      '– \ufffd \ufffd 😀',
    );
  });

  it('D3: without <title> the first h1 is the title, else the file name', () => {
    expect(parseHtml('<h1>Hello</h1><p>x</p>', 'f.html').title).toBe('Hello');
    expect(parseHtml('<p>x</p>', 'notes/f.html').title).toBe('f');
  });

  it('D10: the parsed HTML chunks into exact slices', () => {
    const chunks = chunkDocument(hostile);
    expect(chunks.length).toBe(3);
    for (const c of chunks) expect(hostile.text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks[2]?.headingPath).toEqual(['Lemon & Thyme Cake', 'Method']);
  });
});
