import type { DocumentSection, ParsedDocument } from '../../core/documents/parsed-document';

interface OpenSection {
  start: number;
  heading?: string;
  headingPath: readonly string[];
  page?: number;
}

/**
 * Builds a {@link ParsedDocument} from text appended piece by piece (HTML, PDF): it joins blocks
 * with line or paragraph breaks, never leaves leading/trailing blank space, and records each
 * section's exact range in the final text.
 */
export class DocumentBuilder {
  private parts: string[] = [];
  private length = 0;
  private pendingBreak = 0;
  private lastChar = '';
  private readonly sections: OpenSection[] = [];
  private unplaced: OpenSection[] = [];
  private headingStack: { level: number; text: string }[] = [];

  /** Appends text; `\n`s are kept, other spacing is the caller's business. */
  append(text: string): void {
    if (text === '') return;
    if (this.length > 0 && this.pendingBreak > 0) {
      this.trimTrailingSpaces();
      const lines = this.lastChar === '\n' ? this.pendingBreak - 1 : this.pendingBreak;
      if (lines > 0) this.push('\n'.repeat(lines));
    }
    this.pendingBreak = 0;
    for (const section of this.unplaced) section.start = this.length;
    this.unplaced = [];
    this.push(text);
  }

  /** Asks for a line break (1) or a paragraph break (2) before the next text. */
  requestBreak(lines: 1 | 2): void {
    this.pendingBreak = Math.max(this.pendingBreak, lines);
  }

  /** True when the text so far ends with a space or a break (or is empty). */
  atSpace(): boolean {
    return this.length === 0 || this.pendingBreak > 0 || /\s/.test(this.lastChar);
  }

  /**
   * Starts a new section at the next text. A heading section's path replaces the enclosing
   * headings of the same or a deeper level.
   */
  startSection(options: { heading?: string; level?: number; page?: number }): void {
    const { heading, level, page } = options;
    if (heading !== undefined) {
      const depth = level ?? 1;
      this.headingStack = this.headingStack.filter((h) => h.level < depth);
      this.headingStack.push({ level: depth, text: heading });
    }
    // The start is fixed by the next append, once pending breaks are written.
    const section: OpenSection = {
      start: -1,
      headingPath: this.headingStack.map((h) => h.text),
    };
    if (heading !== undefined) section.heading = heading;
    if (page !== undefined) section.page = page;
    this.sections.push(section);
    this.unplaced.push(section);
  }

  /** The document; sections without any text are left out. */
  finish(title: string, mimeType: string): ParsedDocument {
    const text = this.parts.join('');
    const sections: DocumentSection[] = [];
    const open = this.sections.length > 0 ? this.sections : [{ start: 0, headingPath: [] }];
    if ((open[0]?.start ?? 0) > 0) open.unshift({ start: 0, headingPath: [] });
    for (const [k, s] of open.entries()) {
      let start = s.start < 0 ? text.length : s.start;
      const next = open[k + 1]?.start ?? -1;
      let end = next < 0 ? text.length : next;
      while (start < end && /\s/.test(text.charAt(start))) start += 1;
      while (end > start && /\s/.test(text.charAt(end - 1))) end -= 1;
      if (end <= start) continue;
      const section: DocumentSection = {
        headingPath: s.headingPath,
        text: text.slice(start, end),
        start,
        end,
      };
      if (s.heading !== undefined) section.heading = s.heading;
      if (s.page !== undefined) section.page = s.page;
      sections.push(section);
    }
    return { title, mimeType, text, sections };
  }

  private trimTrailingSpaces(): void {
    while (this.parts.length > 0) {
      const last = this.parts.length - 1;
      const part = this.parts[last] ?? '';
      const trimmed = part.replace(/[ \t]+$/, '');
      this.length -= part.length - trimmed.length;
      if (trimmed !== '') {
        this.parts[last] = trimmed;
        break;
      }
      this.parts.pop();
    }
    this.lastChar = (this.parts[this.parts.length - 1] ?? '').slice(-1);
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    this.lastChar = text.charAt(text.length - 1);
  }
}
