/**
 * X167 (issue 20, item 7): the HTML importer keeps the text a browser shows for malformed markup.
 * Each file of a small corpus goes through `parseHtml` (the importer's own parser, run here in
 * Node) and through Chromium's `DOMParser`; the words must be the same. Elements the importer
 * drops on purpose (scripts, styles, SVG, MathML, templates, embedded objects; ADR 0052) are
 * removed from the browser's tree before its text is read.
 */
import { test, expect } from './fixtures';
import { parseHtml } from '../../src/adapters/documents/parse-html';

const paragraphs = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph number${from + i} here.</p>`).join('\n');

const CORPUS: Record<string, string> = {
  'unclosed svg': `${paragraphs(18)}<svg viewBox="0 0 1 1"><circle r="1"><title>icon</title>${paragraphs(27, 19)}`,
  'unclosed math': `<p>before math</p><math><mi>x</mi><mo>+</mo><div>after math</div><span>and on</span>`,
  'svg closed late': `<div>one</div><svg><g><text>drawn</text></g></svg><div>two</div>`,
  'stray end tags': `<p>alpha</div></span></svg></math>beta</p></table><p>gamma</p></body></html><p>delta</p>`,
  'unclosed template': `<p>shown</p><template><p>hidden forever`,
  'unclosed phrasing': `<p><b><i><u>deep ${'<b>'.repeat(200)}still text</p><p>next paragraph</p>`,
  'unclosed comment': `<p>visible</p><!-- a comment that never ends <p>gone</p>`,
  mixed: `<h1>Title</h1><svg><p>breaks out</p><div>and stays out</div><math><mi>y</mi><table><tr><td>cell</td></tr></table>`,
};

const words = (text: string): string[] =>
  text
    .split(/\s+/)
    .filter((w) => w !== '')
    .sort();

test('X167 (item 7): the importer keeps the words Chromium shows for malformed HTML', async ({
  page,
}) => {
  await page.goto('/');
  for (const [name, html] of Object.entries(CORPUS)) {
    const ours = words(
      parseHtml(`<html><head><title>t</title></head><body>${html}`, 'f.html').text,
    );
    const browser = words(
      await page.evaluate((source) => {
        const doc = new DOMParser().parseFromString(source, 'text/html');
        for (const el of doc.querySelectorAll(
          'script, style, template, svg, math, object, select, canvas, audio, video, iframe, noscript, textarea',
        ))
          el.remove();
        // Element boundaries separate words (textContent glues "end.</p><p>Next"); no word of
        // the corpus spans two elements.
        for (const el of doc.body.querySelectorAll('*')) el.after(' ');
        return doc.body.textContent ?? '';
      }, `<html><head><title>t</title></head><body>${html}`),
    );
    expect({ name, words: ours }).toEqual({ name, words: browser });
  }
});
