/** Whitespace-collapsed, so line wrapping or a speaker prefix in the prompt cannot hide a turn. */
function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether the prompt holds at least one (`any`) and every (`all`) evidence turn (V7, V8). */
export interface PromptEvidence {
  any: boolean;
  all: boolean;
}

/**
 * Checks whether the text of each evidence turn appears, whole, inside the assembled prompt
 * (all its turns' contents joined). A turn counts only when its full text is there: a
 * truncated snippet or a summary that paraphrases it does not (V7). No evidence → neither.
 */
export function evidenceInPrompt(prompt: string, evidenceTexts: readonly string[]): PromptEvidence {
  const haystack = normalize(prompt);
  const texts = evidenceTexts.map(normalize).filter((t) => t !== '');
  if (texts.length === 0) return { any: false, all: false };
  const hits = texts.map((t) => haystack.includes(t));
  return { any: hits.some(Boolean), all: hits.every(Boolean) };
}
