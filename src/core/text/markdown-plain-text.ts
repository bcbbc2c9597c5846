const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
const CLOSING_HASHES = /[ \t]+#+[ \t]*$/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const QUOTE = /^ {0,3}(?:>[ \t]?)+/;
const BULLET = /^([ \t]*)[-*+][ \t]+(?:\[[ xX]\][ \t]+)?/;
const LINK_DEF = /^ {0,3}\[[^\]]+\]:[ \t]*\S+.*$/;

/** Inline Markdown as the words a reader sees: links keep their text, marks go. */
function inlinePlain(line: string): string {
  // Escaped marks are set aside first so no rule below reads them as syntax.
  const escaped: string[] = [];
  const held = line.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => {
    escaped.push(c);
    return `\uE000${escaped.length - 1}\uE001`;
  });
  return (
    held
      // Images keep their description, links their text; both drop the address.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?:|mailto:)[^>\s]+)>/gi, '$1')
      // Code spans keep their text as written.
      .replace(/(`+)([^`]|[^`].*?[^`])\1/g, (_m, _ticks: string, code: string) => code.trim())
      // Paired emphasis, strong and strike marks.
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, '$1$2')
      .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, '$1$2')
      // Backslash escapes show the character.
      .replace(/\uE000(\d+)\uE001/g, (_m, k: string) => escaped[Number(k)] ?? '')
  );
}

/** `|---|:--:|`, the row under a table's header. */
function isDelimiterRow(line: string): boolean {
  return line.includes('-') && line.includes('|') && TABLE_DELIMITER.test(line);
}

/** A table row's cells, without the pipes, joined by a middle dot. */
function tableRow(line: string): string {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  return cells.join(' · ');
}

/**
 * Markdown source as plain text for a search hit or a citation preview (U199): headings without
 * `#`, no emphasis marks, links as their text, list bullets as "•", table rows as cells joined by
 * " · " with the delimiter row gone, no quote marks, rules or link definitions. Code inside
 * fences is kept as written. Line breaks are kept; blank lines collapse to one. Pure and linear
 * in the text's length; a text without Markdown comes back unchanged (but for blank lines).
 */
export function markdownToPlainText(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let inTable = false;
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (const [i, raw] of lines.entries()) {
    const fenceMatch = FENCE.exec(raw);
    if (fence !== null) {
      if (fenceMatch?.[1] !== undefined && fenceMatch[1].startsWith(fence)) fence = null;
      else out.push(raw);
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      fence = fenceMatch[1].charAt(0).repeat(fenceMatch[1].length);
      continue;
    }
    let line = raw.replace(QUOTE, '');
    if (!line.includes('|')) inTable = false;
    if (isDelimiterRow(line)) {
      inTable = true;
      continue;
    }
    if (RULE.test(line) || LINK_DEF.test(line)) continue;
    if (ATX.test(line)) line = line.replace(ATX, '').replace(CLOSING_HASHES, '');
    else if (inTable || /^\s*\|.*\|\s*$/.test(line) || isDelimiterRow(lines[i + 1] ?? ''))
      line = line.includes('|') ? tableRow(line) : line;
    else line = line.replace(BULLET, '$1• ');
    out.push(inlinePlain(line).trimEnd());
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
