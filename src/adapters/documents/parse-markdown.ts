import type { DocumentSection, ParsedDocument } from '../../core/documents/parsed-document';
import { FORMAT_MIME, titleFromFileName } from './document-format';
import { normalizeNewlines } from './parse-text';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Heading {
  /** Offset of the heading's first line. */
  at: number;
  level: number;
  text: string;
}

/**
 * A Markdown document. The text stays the Markdown source (newline-normalised), so passages and
 * highlights point into the file as written; structure comes from ATX (`## x`) and setext
 * (`x` over `===`/`---`) headings outside fenced code and YAML front matter. Each heading opens
 * a section that runs to the next heading; text before the first heading is its own section.
 * The title is the front matter's `title:`, else the first level-1 heading, else the file name.
 */
export function parseMarkdown(source: string, fileName: string): ParsedDocument {
  const text = normalizeNewlines(source);
  const lines = splitLines(text);
  const headings: Heading[] = [];
  let frontMatterTitle: string | undefined;
  let index = 0;
  if (lines[0]?.line === '---') {
    const close = lines.findIndex((l, k) => k > 0 && (l.line === '---' || l.line === '...'));
    if (close > 0) {
      for (const l of lines.slice(1, close)) {
        const m = /^title:\s*(.+?)\s*$/i.exec(l.line);
        if (m?.[1] !== undefined) frontMatterTitle = m[1].replace(/^["']|["']$/g, '');
      }
      index = close + 1;
    }
  }
  let fence: string | null = null;
  for (; index < lines.length; index += 1) {
    const { line, at } = lines[index] ?? { line: '', at: 0 };
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch?.[1] !== undefined && fenceMatch[1].startsWith(fence)) fence = null;
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = fenceMatch[1];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx !== null) {
      headings.push({ at, level: atx[1]?.length ?? 1, text: inlineText(atx[2] ?? '') });
      continue;
    }
    const next = lines[index + 1]?.line;
    const previousBlank = index === 0 || (lines[index - 1]?.line.trim() ?? '') === '';
    const underline = next === undefined ? null : SETEXT.exec(next);
    if (underline !== null && line.trim() !== '' && previousBlank && !/^ {4}/.test(line)) {
      headings.push({ at, level: underline[1]?.startsWith('=') ? 1 : 2, text: inlineText(line) });
      index += 1;
    }
  }
  const firstH1 = headings.find((h) => h.level === 1 && h.text !== '');
  return {
    title: frontMatterTitle ?? firstH1?.text ?? titleFromFileName(fileName),
    mimeType: FORMAT_MIME.markdown,
    text,
    sections: sectionsOf(text, headings),
  };
}

function splitLines(text: string): { line: string; at: number }[] {
  const out: { line: string; at: number }[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    out.push({ line, at });
    at += line.length + 1;
  }
  return out;
}

function sectionsOf(text: string, headings: Heading[]): DocumentSection[] {
  const sections: DocumentSection[] = [];
  const stack: Heading[] = [];
  const starts: { at: number; heading?: Heading; path: string[] }[] = [{ at: 0, path: [] }];
  for (const h of headings) {
    while ((stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
    stack.push(h);
    starts.push({ at: h.at, heading: h, path: stack.map((s) => s.text) });
  }
  for (const [k, s] of starts.entries()) {
    let start = s.at;
    let end = starts[k + 1]?.at ?? text.length;
    while (start < end && /\s/.test(text.charAt(start))) start += 1;
    while (end > start && /\s/.test(text.charAt(end - 1))) end -= 1;
    if (end <= start) continue;
    const section: DocumentSection = {
      headingPath: s.path,
      text: text.slice(start, end),
      start,
      end,
    };
    if (s.heading !== undefined) section.heading = s.heading.text;
    sections.push(section);
  }
  return sections;
}

/** Heading text without inline Markdown: links keep their text, emphasis and code marks go. */
function inlineText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`|~~)(.+?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}
