/** Whitespace-collapsed, so line wrapping or a speaker prefix in the prompt cannot hide a turn. */
function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` as it reads inside a JSON string (a reply in the queue is a `send_message` call). */
function asJsonString(text: string): string {
  return JSON.stringify(text.trim()).slice(1, -1);
}

/** Whether the prompt holds at least one (`any`) and every (`all`) evidence turn (V7, V8). */
export interface PromptEvidence {
  any: boolean;
  all: boolean;
}

/**
 * Checks whether the text of each evidence turn appears, whole, inside the assembled prompt
 * (all its turns' contents joined): as plain text (whitespace collapsed), or JSON-escaped as the
 * queue renders a reply the agent sent. A turn counts only when its full text is there: a
 * truncated snippet or a summary that paraphrases it does not (V7). No evidence → neither.
 */
export function evidenceInPrompt(prompt: string, evidenceTexts: readonly string[]): PromptEvidence {
  const haystack = normalize(prompt);
  const texts = evidenceTexts.filter((t) => normalize(t) !== '');
  if (texts.length === 0) return { any: false, all: false };
  const hits = texts.map(
    (t) => haystack.includes(normalize(t)) || prompt.includes(asJsonString(t)),
  );
  return { any: hits.some(Boolean), all: hits.every(Boolean) };
}
