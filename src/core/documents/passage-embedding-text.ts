/**
 * The text embedded for a document passage: the document title and heading path above the
 * passage text. A passage of "## Fuel" then reads as part of "Lighthouse Handbook › Lamp ›
 * Fuel", which a query naming the document or section can match (ADR 0051). The stored passage
 * text stays the exact slice of the document; only the vector sees the context line.
 */
export function passageEmbeddingText(
  title: string,
  heading: string | undefined,
  text: string,
): string {
  // Markdown and HTML often repeat the title as the first heading: say it once.
  const repeats = heading === title || heading?.startsWith(`${title} › `) === true;
  const context =
    heading === undefined || heading === '' ? title : repeats ? heading : `${title} › ${heading}`;
  return `${context}\n\n${text}`;
}

/** How a heading path is stored in `PassageSource.heading` and shown in citations. */
export function joinHeadingPath(path: readonly string[]): string | undefined {
  return path.length === 0 ? undefined : path.join(' › ');
}
