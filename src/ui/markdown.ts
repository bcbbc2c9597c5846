/**
 * Renders untrusted Markdown (model output, imported notes) to safe HTML (rules U20–U23).
 *
 * Two layers, so one bug does not open a hole: marked's renderer never emits raw HTML (it is
 * shown as text), keeps only http(s)/mailto/fragment links and blocks images (a remote image
 * would leave the device, P10); then DOMPurify, with a small tag allowlist, sanitizes the result
 * wherever a DOM exists (the browser). In Node, where DOMPurify cannot run, the first layer
 * alone is what the unit tests check.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

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
  if (!DOMPurify.isSupported) return html;
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

/** Markdown → sanitized HTML, safe to assign to `innerHTML`. */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false });
  return purify(html);
}
