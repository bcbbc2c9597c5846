/**
 * The manuscript as Markdown: a title, the genre and topic, then the sections in order. In
 * interactive fiction the reader's actions are part of the story, so each section after the
 * first is preceded by the action that led to it, as a quote.
 */
import type { WriterState } from './writer-state';

/** Renders the manuscript. Line breaks inside sections are kept. */
export function exportMarkdown(state: WriterState): string {
  const out: string[] = [`# ${state.title.trim() === '' ? state.topic : state.title}`, ''];
  out.push(`*${state.genre} — ${state.topic}*`, '');
  state.sections.forEach((section, i) => {
    if (state.mode === 'fiction' && i > 0 && section.plan !== '') {
      out.push(
        section.plan
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n'),
        '',
      );
    }
    out.push(section.text.trim(), '');
  });
  return out.join('\n');
}
