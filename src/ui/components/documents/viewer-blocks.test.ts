import { describe, expect, it } from 'vitest';
import { renderMarkdownBlocksWith } from '../../markdown';
import { citedBlockIndexes, demoteHeadings, readViewerMode, saveViewerMode } from './viewer-blocks';

const doc = [
  '# Lighthouse Handbook',
  '',
  'The lamp must be **lit** at dusk.',
  '',
  '- Trim the wick',
  '- Wipe the lens',
  '',
  '| Fuel | Cans |',
  '|------|------|',
  '| Paraffin | 2 |',
  '',
  'See [the log][log].',
  '',
  '[log]: https://example.org/log',
].join('\n');

// The first layer alone: no DOM in unit tests; the browser adds DOMPurify (e2e).
const rendered = renderMarkdownBlocksWith(doc, (html) => html);
const blocks = rendered.ok ? rendered.blocks : [];

describe('renderMarkdownBlocksWith (U197)', () => {
  it('maps each rendered block to the exact source it came from', () => {
    expect(rendered.ok).toBe(true);
    expect(blocks.map((b) => doc.slice(b.start, b.end))).toEqual([
      '# Lighthouse Handbook',
      'The lamp must be **lit** at dusk.',
      '- Trim the wick\n- Wipe the lens',
      '| Fuel | Cans |\n|------|------|\n| Paraffin | 2 |',
      'See [the log][log].',
    ]);
    expect(blocks[0]!.html).toContain('<h1');
    expect(blocks[1]!.html).toContain('<strong>lit</strong>');
    expect(blocks[2]!.html).toContain('<li>Trim the wick</li>');
    expect(blocks[3]!.html).toContain('<td>Paraffin</td>');
    expect(blocks[3]!.html).not.toContain('|');
    // A reference link still resolves though its definition is another block.
    expect(blocks[4]!.html).toContain('href="https://example.org/log"');
  });

  it('a citation marks the blocks its offsets fall in, and only those', () => {
    const at = (s: string) => ({ start: doc.indexOf(s), end: doc.indexOf(s) + s.length });
    expect(citedBlockIndexes(blocks, at('lit** at dusk.'))).toEqual([1]);
    expect(citedBlockIndexes(blocks, at('Wipe the lens\n\n| Fuel'))).toEqual([2, 3]);
    expect(citedBlockIndexes(blocks, at('| Paraffin | 2 |'))).toEqual([3]);
    // Blank lines between blocks belong to no block; no citation marks nothing.
    expect(
      citedBlockIndexes(blocks, { start: doc.indexOf('\n\n'), end: doc.indexOf('\n\n') + 2 }),
    ).toEqual([]);
    expect(citedBlockIndexes(blocks, null)).toEqual([]);
  });

  it('YAML front matter is one block of properties, not a rule and a heading (issue 37 item 6)', () => {
    const md = '---\ntitle: "Handbook"\ntags: [camp, <b>gear</b>]\n---\n\n# Handbook\n\nText.';
    const out = renderMarkdownBlocksWith(md, (html) => html);
    const got = out.ok ? out.blocks : [];
    expect(got.map((b) => md.slice(b.start, b.end))).toEqual([
      '---\ntitle: "Handbook"\ntags: [camp, <b>gear</b>]\n---',
      '# Handbook',
      'Text.',
    ]);
    expect(got[0]!.html).toBe(
      '<dl class="front-matter"><dt>title</dt><dd>Handbook</dd><dt>tags</dt><dd>[camp, &lt;b&gt;gear&lt;/b&gt;]</dd></dl>',
    );
    expect(got[0]!.html).not.toContain('<hr');
  });

  it('front matter that is more than key: value lines stays YAML source', () => {
    const md = '---\nauthor:\n  name: Ada\n---\n\nText.';
    const out = renderMarkdownBlocksWith(md, (html) => html);
    const got = out.ok ? out.blocks : [];
    expect(got[0]!.html).toContain('<pre><code class="language-yaml">');
    expect(got[0]!.html).not.toContain('<hr');
  });

  it('hostile Markdown stays inert: raw HTML is text, javascript: links lose their address', () => {
    const hostile =
      '# Hi\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[x](javascript:alert(3)) and [y](JaVa\tScRiPt:alert(4))';
    const out = renderMarkdownBlocksWith(hostile, (html) => html);
    expect(out.ok).toBe(true);
    const html = out.ok ? out.blocks.map((b) => b.html).join('') : '';
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/<a /);
  });

  it('a document nested too deeply to lex safely is not formatted, and says why', () => {
    const deep = `${'>'.repeat(200)} deep`;
    expect(renderMarkdownBlocksWith(deep, (h) => h)).toEqual({
      ok: false,
      reason: 'it nests too deeply to format',
    });
  });
});

describe('viewer mode (U198)', () => {
  it('is remembered in the session storage, formatted until Source is chosen', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    expect(readViewerMode(storage)).toBe('formatted');
    saveViewerMode(storage, 'source');
    expect(readViewerMode(storage)).toBe('source');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readViewerMode(refusing)).toBe('formatted');
    expect(() => saveViewerMode(refusing, 'source')).not.toThrow();
  });
});

describe('demoteHeadings (U197)', () => {
  it('puts a document heading under the viewer title, never past h6, and leaves text alone', () => {
    expect(demoteHeadings('<h1 id="a">Title</h1><h2>Fuel</h2>', 2)).toBe(
      '<h3 id="a">Title</h3><h4>Fuel</h4>',
    );
    expect(demoteHeadings('<h5>Deep</h5><h6>Deeper</h6>', 2)).toBe('<h6>Deep</h6><h6>Deeper</h6>');
    expect(demoteHeadings('<p>&lt;h1&gt; stays text, <hr> too</p>', 2)).toBe(
      '<p>&lt;h1&gt; stays text, <hr> too</p>',
    );
  });
});
