/**
 * Renders untrusted Markdown (model output, imported notes) to safe HTML (rules U20–U23).
 *
 * Two layers, so one bug does not open a hole: marked's renderer never emits raw HTML (it is
 * shown as text), keeps only http(s)/mailto/fragment links and blocks images (a remote image
 * would leave the device, P10); then DOMPurify, with a small tag allowlist, sanitizes the result
 * wherever a DOM exists (the browser). Where DOMPurify reports it cannot run
 * (`DOMPurify.isSupported` false, e.g. Node) the sanitizer fails closed: the message is shown as
 * plain text, never as HTML that only one layer checked (U24). The unit tests check the first
 * layer through {@link markdownToHtml}.
 *
 * Rendering never throws and never takes the chat down (X160, ADR 0160): Markdown nested deeper
 * than {@link MAX_MARKDOWN_DEPTH} (which overflows marked's recursive parser), a source longer
 * than {@link MAX_RENDERED_CHARS}, or any failure of the renderer gives the message as plain
 * text with a note saying why.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { capStackedMarks } from '../core/text/combining-marks';

const SAFE_HREF = /^(https?:|mailto:|#)/i;

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'input',
  // A document's front matter as properties (renderMarkdownBlocks); marked never writes these.
  'dl',
  'dt',
  'dd',
];
const ALLOWED_ATTR = [
  'href',
  'title',
  'rel',
  'target',
  'class',
  'type',
  'checked',
  'disabled',
  'align',
];

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Browsers ignore control characters and whitespace inside a scheme (`java\tscript:`). */
function normalizedHref(href: string): string {
  let decoded = href;
  try {
    decoded = decodeURIComponent(href);
  } catch (_error) {
    // A malformed escape is not a valid link anyway; judge the raw text.
  }
  // eslint-disable-next-line no-control-regex
  return decoded.replace(/[\u0000-\u0020\u007f]+/g, '');
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    link(token: Tokens.Link): string {
      const label = this.parser.parseInline(token.tokens);
      if (!SAFE_HREF.test(normalizedHref(token.href))) return label;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(token.href)}"${title} rel="noopener noreferrer nofollow" target="_blank">${label}</a>`;
    },
    image({ text }: Tokens.Image): string {
      return `<span class="md-image-blocked">[image: ${escapeHtml(text || 'no description')}]</span>`;
    },
  },
});

let hooked = false;
function purify(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href') ?? '';
        if (!SAFE_HREF.test(normalizedHref(href))) node.removeAttribute('href');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
        node.setAttribute('target', '_blank');
      }
      if (node.tagName === 'INPUT' && node.getAttribute('type') !== 'checkbox') node.remove();
    });
  }
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  });
}

/** Deepest nesting of block containers (quotes, list items) rendered as Markdown. */
export const MAX_MARKDOWN_DEPTH = 32;
/** Longest source rendered as Markdown; longer text shows as plain text (ADR 0160). */
export const MAX_RENDERED_CHARS = 200_000;
/** Longest run of one emphasis or bracket character rendered as Markdown. */
const MAX_DELIMITER_RUN = 64;

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const DELIMITER_RUN = new RegExp(`([*_~\\[\\]])\\1{${MAX_DELIMITER_RUN},}`);

/**
 * How deeply the block containers of one line nest: each `>` and list marker of its prefix
 * counts one, and every two columns of indentation one (an indented list item nests in the one
 * above). Linear in the line's length; no regex backtracking.
 */
function lineDepth(line: string): number {
  let depth = 0;
  let indent = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ') {
      indent += 1;
      i += 1;
    } else if (c === '\t') {
      indent += 4;
      i += 1;
    } else if (c === '>') {
      depth += 1;
      i += 1;
    } else {
      const marker = LIST_MARKER.exec(line.slice(i, i + 12));
      if (!marker) break;
      depth += 1;
      i += marker[0].length;
    }
  }
  return depth + Math.floor(indent / 2);
}

/** Why `source` is shown as plain text rather than Markdown, or null when it renders. */
function plainTextReason(source: string, maxChars = MAX_RENDERED_CHARS): string | null {
  if (source.length > maxChars) return 'it is too long to format';
  let fenced = false;
  for (const line of source.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced && lineDepth(line) > MAX_MARKDOWN_DEPTH)
      return 'it nests too deeply to format';
  }
  if (DELIMITER_RUN.test(source)) return 'it nests too deeply to format';
  return null;
}

/** Most characters of a message shown as plain text; the rest is named in the note (X172). */
export const MAX_SHOWN_CHARS = 20_000;

/** The message as escaped plain text (line breaks kept by CSS), with a note saying why. */
function plainText(source: string, reason: string | null): string {
  const cut = source.length > MAX_SHOWN_CHARS;
  const why = [
    reason,
    cut
      ? `the first ${MAX_SHOWN_CHARS.toLocaleString('en')} of its ${source.length.toLocaleString('en')} characters are shown`
      : null,
  ].filter((x) => x !== null);
  const note =
    why.length > 0 ? `<p class="md-note">Shown as plain text: ${why.join('; ')}.</p>` : '';
  const shown = cut ? source.slice(0, MAX_SHOWN_CHARS) : source;
  return `${note}<p class="md-plain">${escapeHtml(capStackedMarks(shown))}</p>`;
}

/**
 * The first layer alone: marked with raw HTML escaped, unsafe links dropped and images blocked.
 * Not safe for `innerHTML` by itself; {@link renderMarkdown} adds the sanitizer. May throw on
 * hostile input (a stack overflow on deep nesting).
 */
export function markdownToHtml(source: string): string {
  return marked.parse(source, { async: false });
}

/**
 * Markdown → HTML through `sanitize`; never throws: what cannot be rendered (too deep, too long,
 * or the renderer or sanitizer failed) is returned as escaped plain text with a note.
 */
export function renderMarkdownWith(raw: string, sanitize: (html: string) => string): string {
  const reason = plainTextReason(raw);
  const source = reason === null ? capStackedMarks(raw) : raw;
  if (reason !== null) return plainText(source, reason);
  try {
    return sanitize(markdownToHtml(source));
  } catch (error) {
    console.error('rendering a message as Markdown failed', error);
    return plainText(source, 'it could not be formatted');
  }
}

/**
 * Markdown → sanitized HTML, safe to assign to `innerHTML`. Never throws. Where DOMPurify cannot
 * run the sanitizer fails closed and the message is plain text (U24).
 */
export function renderMarkdown(source: string): string {
  if (!DOMPurify.isSupported) return plainText(source, null);
  return renderMarkdownWith(source, purify);
}

/** Longest document the viewer formats block by block (U197); longer ones show as source. */
export const MAX_FORMATTED_DOCUMENT_CHARS = 2_000_000;

/** One top-level block of a Markdown document, rendered, with the source range it came from. */
export interface MarkdownBlock {
  /** `[start, end)` of the block's source in the document text, without surrounding blanks. */
  start: number;
  end: number;
  /** The block rendered and sanitized like a chat message, safe for `innerHTML`. */
  html: string;
}

export type MarkdownBlocks = { ok: true; blocks: MarkdownBlock[] } | { ok: false; reason: string };

/**
 * A Markdown document as its top-level blocks (heading, paragraph, list, table, code, quote),
 * each rendered on its own with the exact source range it covers, so the viewer can mark the
 * block(s) a citation's offsets fall in (U197, ADR 0144). The ranges come from marked's lexer,
 * whose tokens' `raw` texts concatenate to the source; each block is then rendered through
 * {@link renderMarkdownWith} with the document's link definitions appended, so reference links
 * still resolve and every limit of the chat renderer applies per block. Never throws: a
 * document too long or too deep to lex safely gives `ok: false` with the reason.
 */
export function renderMarkdownBlocksWith(
  source: string,
  sanitize: (html: string) => string,
): MarkdownBlocks {
  const reason = plainTextReason(source, MAX_FORMATTED_DOCUMENT_CHARS);
  if (reason !== null) return { ok: false, reason };
  const blocks: MarkdownBlock[] = [];
  // YAML front matter is data, not a heading over a rule: simple `key: value` lines show as a
  // list of properties (as note apps show them); anything else as a code block.
  const front = /^---\n(?:[^\n]*\n)*?(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(source);
  const body = front ? front[0].length : 0;
  if (front) {
    const raw = front[0].trimEnd();
    const properties = frontMatterProperties(raw);
    // A fence longer than any run of backticks inside, so nothing in it closes the block.
    const longest = Math.max(2, ...[...raw.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    blocks.push({
      start: 0,
      end: raw.length,
      html: sanitize(
        properties
          ? `<dl class="front-matter">${properties
              .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
              .join('')}</dl>`
          : renderMarkdownWith(`${fence}yaml\n${raw}\n${fence}`, sanitize),
      ),
    });
  }
  let tokens: { type: string; raw: string }[];
  try {
    tokens = marked.lexer(source.slice(body));
  } catch (error) {
    console.error('splitting a document into Markdown blocks failed', error);
    return { ok: false, reason: 'it could not be formatted' };
  }
  const defs = tokens
    .filter((t) => t.type === 'def')
    .map((t) => t.raw.trim())
    .join('\n');
  const suffix = defs === '' ? '' : `\n\n${defs}`;
  let at = body;
  for (const token of tokens) {
    const from = source.startsWith(token.raw, at) ? at : source.indexOf(token.raw, at);
    if (from < 0) return { ok: false, reason: 'it could not be formatted' };
    at = from + token.raw.length;
    if (token.type === 'space' || token.type === 'def') continue;
    const lead = token.raw.length - token.raw.trimStart().length;
    const trail = token.raw.length - token.raw.trimEnd().length;
    const start = from + lead;
    const end = Math.max(start, at - trail);
    if (end === start) continue;
    blocks.push({ start, end, html: renderMarkdownWith(token.raw + suffix, sanitize) });
  }
  return { ok: true, blocks };
}

/**
 * The `key: value` pairs of a front matter block (`---` … `---`), or null when any line is more
 * than that (a nested map, a list item, a block scalar): those show as YAML source instead.
 * Quotes around a value are dropped; `[a, b]` stays as written.
 */
export function frontMatterProperties(raw: string): [string, string][] | null {
  const lines = raw.split('\n').slice(1, -1);
  const pairs: [string, string][] = [];
  for (const line of lines) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z0-9_][\w .-]*?):(?:\s+(.*))?$/.exec(line);
    if (!match) return null;
    const value = (match[2] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
    if (value === '' || value === '|' || value === '>') return null;
    pairs.push([match[1]!, value]);
  }
  return pairs.length > 0 ? pairs : null;
}

/**
 * {@link renderMarkdownBlocksWith} with the app's sanitizer. Where DOMPurify cannot run it fails
 * closed: `ok: false`, and the viewer shows the source (U24).
 */
export function renderMarkdownBlocks(source: string): MarkdownBlocks {
  if (!DOMPurify.isSupported) return { ok: false, reason: 'the sanitizer cannot run here' };
  return renderMarkdownBlocksWith(source, purify);
}
