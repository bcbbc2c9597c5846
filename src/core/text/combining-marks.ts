/** Combining marks shown on one base character; no script needs more (X172). */
export const MAX_STACKED_MARKS = 8;

const MARK_RUN = new RegExp(`\\p{M}{${MAX_STACKED_MARKS + 1},}`, 'gu');

/**
 * `text` for display with every run of more than {@link MAX_STACKED_MARKS} combining marks cut
 * to that many, followed by a visible "[+N marks]": one letter with 200,000 marks stacked on it
 * froze the page's layout for 40 s. The stored text is unchanged.
 */
export function capStackedMarks(text: string): string {
  return text.replace(MARK_RUN, (run) => {
    const marks = [...run];
    return `${marks.slice(0, MAX_STACKED_MARKS).join('')} [+${marks.length - MAX_STACKED_MARKS} marks]`;
  });
}
