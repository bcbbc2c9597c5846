import type { ParsedDocument } from '../../core/documents/parsed-document';
import { DocumentBuilder } from './document-builder';
import { FORMAT_MIME, titleFromFileName } from './document-format';
import { decodeEntities } from './html-entities';

/** Elements whose content is not markup: skipped to their end tag (`title` is kept as the title). */
const RAW_TEXT = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);
/** Elements whose whole subtree is dropped: inert templates, graphics, embedded objects, forms' lists. */
const DROPPED = new Set([
  'template',
  'svg',
  'math',
  'object',
  'select',
  'canvas',
  'audio',
  'video',
]);
const VOID = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' '),
);
const PARAGRAPH = new Set(
  'p div section article header footer main nav aside blockquote pre table ul ol dl figure form fieldset address details hr body'.split(
    ' ',
  ),
);
const LINE = new Set('br li tr dt dd figcaption summary caption option legend'.split(' '));
const CELL = new Set(['td', 'th']);
/** Foreign (SVG, MathML) content, which an HTML start tag from {@link BREAKOUT} ends. */
const FOREIGN = new Set(['svg', 'math']);
/**
 * The HTML start tags that break out of unclosed SVG or MathML (HTML's tree construction, "in
 * foreign content"): a browser closes the foreign elements and shows what follows as HTML.
 */
const BREAKOUT = new Set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var'.split(
    ' ',
  ),
);
const HEADING = /^h([1-6])$/;

/**
 * Extracts readable text from HTML without a DOM and without running or loading anything: a
 * small tokenizer of its own (ADR 0052), so it behaves the same in the browser and in Node.
 * Scripts, styles, templates, comments, SVG/MathML and embedded objects are dropped; attributes
 * (`onerror`, `href`, `src`, …) are never read; character references are decoded. Headings
 * `h1`–`h6` open sections (with their nesting as the heading path); block elements become line
 * or paragraph breaks; whitespace collapses except inside `pre`. The title is `<title>`, else
 * the first `h1`, else the file name.
 */
export function parseHtml(html: string, fileName: string): ParsedDocument {
  const out = new DocumentBuilder();
  const src = html.replace(/\r\n?/g, '\n');
  const dropped: string[] = [];
  /** How many of each name `dropped` holds. */
  const openDropped = new Map<string, number>();
  /** How many start tags of each name are open (outside dropped content). */
  const openBlocks = new Map<string, number>();
  let preDepth = 0;
  let title: string | undefined;
  let firstH1: string | undefined;
  let heading: { level: number; parts: string[] } | null = null;

  const text = (raw: string): void => {
    if (dropped.length > 0) return;
    const decoded = decodeEntities(raw).replace(/\u00a0/g, ' ');
    if (heading !== null) {
      heading.parts.push(decoded);
      return;
    }
    if (preDepth > 0) {
      out.append(decoded);
      return;
    }
    let collapsed = decoded.replace(/\s+/g, ' ');
    if (out.atSpace()) collapsed = collapsed.replace(/^ /, '');
    out.append(collapsed);
  };

  const closeHeading = (): void => {
    if (heading === null) return;
    const value = heading.parts.join('').replace(/\s+/g, ' ').trim();
    const level = heading.level;
    heading = null;
    if (value === '') return;
    if (level === 1 && firstH1 === undefined) firstH1 = value;
    out.requestBreak(2);
    out.startSection({ heading: value, level });
    out.append(value);
    out.requestBreak(2);
  };

  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt < 0) {
      text(src.slice(i));
      break;
    }
    if (lt > i) text(src.slice(i, lt));
    const tag = readTag(src, lt);
    i = tag.next;
    if (tag.type === 'text') {
      text('<');
      continue;
    }
    if (tag.type !== 'start' && tag.type !== 'end') continue; // comment, doctype, bogus
    const { name } = tag;
    if (tag.type === 'start') {
      if (RAW_TEXT.has(name) && !tag.selfClosing) {
        const end = rawTextEnd(src, i, name);
        if (name === 'title' && dropped.length === 0 && title === undefined) {
          title = decodeEntities(src.slice(i, end.contentEnd)).replace(/\s+/g, ' ').trim();
        }
        i = end.next;
        continue;
      }
      if (BREAKOUT.has(name)) breakOutOfForeign();
      if (DROPPED.has(name)) {
        if (!tag.selfClosing) {
          dropped.push(name);
          openDropped.set(name, (openDropped.get(name) ?? 0) + 1);
        }
        continue;
      }
      if (dropped.length > 0) continue;
      if (!tag.selfClosing) openBlocks.set(name, (openBlocks.get(name) ?? 0) + 1);
      const level = HEADING.exec(name)?.[1];
      if (level !== undefined) {
        closeHeading();
        heading = { level: Number(level), parts: [] };
        continue;
      }
      if (name === 'pre') {
        preDepth += 1;
        if (src.charAt(i) === '\n') i += 1; // HTML ignores a newline right after <pre>
      }
      blockBreak(name);
      continue;
    }
    // End tag.
    if (name === 'p' || name === 'br') breakOutOfForeign();
    if (dropped.length > 0) {
      // Only search when the name is open: a stray end tag inside thousands of unclosed ones
      // would otherwise scan them all, each time (quadratic).
      if ((openDropped.get(name) ?? 0) > 0) {
        const at = dropped.lastIndexOf(name);
        for (const gone of dropped.splice(at)) openDropped.set(gone, openDropped.get(gone)! - 1);
      }
      continue;
    }
    // A stray end tag (nothing of that name open) is ignored, as a browser does; `</p>` and
    // `</br>` still break (a browser makes an empty paragraph, or a line break, of them).
    const open = openBlocks.get(name) ?? 0;
    if (open === 0 && name !== 'p' && name !== 'br') continue;
    if (open > 0) openBlocks.set(name, open - 1);
    if (HEADING.test(name)) {
      closeHeading();
      continue;
    }
    if (name === 'pre' && preDepth > 0) preDepth -= 1;
    blockBreak(name);
  }
  closeHeading();

  /** Closes unclosed SVG/MathML (not the HTML elements dropped around it, such as `template`). */
  function breakOutOfForeign(): void {
    while (dropped.length > 0 && FOREIGN.has(dropped[dropped.length - 1]!)) {
      const gone = dropped.pop()!;
      openDropped.set(gone, openDropped.get(gone)! - 1);
    }
  }

  function blockBreak(name: string): void {
    if (heading !== null) {
      if (name === 'br') heading.parts.push(' ');
      return;
    }
    if (PARAGRAPH.has(name)) out.requestBreak(2);
    else if (LINE.has(name)) out.requestBreak(1);
    else if (CELL.has(name) && !out.atSpace()) out.append(' ');
  }

  const docTitle =
    title !== undefined && title !== '' ? title : (firstH1 ?? titleFromFileName(fileName));
  return out.finish(docTitle, FORMAT_MIME.html);
}

type Tag =
  | { type: 'start'; name: string; selfClosing: boolean; next: number }
  | { type: 'end'; name: string; next: number }
  | { type: 'markup'; next: number }
  | { type: 'text'; next: number };

/** Reads the markup that starts with `<` at `at`; `text` when the `<` is just a character. */
function readTag(src: string, at: number): Tag {
  if (src.startsWith('<!--', at)) {
    const close = src.indexOf('-->', at + 4);
    return { type: 'markup', next: close < 0 ? src.length : close + 3 };
  }
  const c = src.charAt(at + 1);
  if (c === '!' || c === '?') return { type: 'markup', next: afterGt(src, at + 2) };
  if (c === '/') {
    const m = /^[A-Za-z][^\s/>]*/.exec(src.slice(at + 2, at + 66));
    if (m === null) return { type: 'markup', next: afterGt(src, at + 2) };
    return { type: 'end', name: m[0].toLowerCase(), next: afterGt(src, at + 2 + m[0].length) };
  }
  const m = /^[A-Za-z][^\s/>]*/.exec(src.slice(at + 1, at + 65));
  if (m === null) return { type: 'text', next: at + 1 };
  const name = m[0].toLowerCase();
  // Attributes are skipped, quotes respected, never interpreted.
  let j = at + 1 + m[0].length;
  while (j < src.length && src.charAt(j) !== '>') {
    if (src.charAt(j) === '=') {
      j += 1;
      while (j < src.length && /\s/.test(src.charAt(j))) j += 1;
      const q = src.charAt(j);
      if (q === '"' || q === "'") {
        const close = src.indexOf(q, j + 1);
        j = close < 0 ? src.length : close + 1;
        continue;
      }
    }
    j += 1;
  }
  const selfClosing = src.charAt(j - 1) === '/' || VOID.has(name);
  return { type: 'start', name, selfClosing, next: Math.min(j + 1, src.length) };
}

function afterGt(src: string, from: number): number {
  const gt = src.indexOf('>', from);
  return gt < 0 ? src.length : gt + 1;
}

/** Where a raw-text element's content ends (its end tag), and the index after that tag. */
function rawTextEnd(src: string, from: number, name: string): { contentEnd: number; next: number } {
  if (name === 'plaintext') return { contentEnd: src.length, next: src.length };
  const re = new RegExp(`</${name}(?=[\\s/>])`, 'gi');
  re.lastIndex = from;
  const m = re.exec(src);
  if (m === null) return { contentEnd: src.length, next: src.length };
  return { contentEnd: m.index, next: afterGt(src, m.index + m[0].length) };
}
