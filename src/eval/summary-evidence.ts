/**
 * `summary_evidence_kept` (V39): whether an evidence turn the queue evicted is still in the
 * recursive summary's text. The eval's summaries are the extractive fallback's (V28), which
 * quotes turns and clips them, so the test is textual: the summary holds the turn's whole text,
 * or a run of {@link SUMMARY_EVIDENCE_CHARS} consecutive characters of it (a clipped line, or one
 * sentence of a longer turn). A paraphrase does not count.
 */
import type { Agent, MessageId } from '../core/model';
import type { MemoryStore } from '../core/ports/memory-store';

/**
 * The shortest run of a turn's characters that counts as the turn (whitespace collapsed):
 * about eight words, long enough that no other turn shares it by chance.
 */
export const SUMMARY_EVIDENCE_CHARS = 48;

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether `summary` holds `evidence` whole or a run of at least 48 of its characters. */
export function evidenceInSummary(summary: string, evidence: string): boolean {
  const haystack = normalize(summary);
  const needle = normalize(evidence);
  if (needle === '' || haystack === '') return false;
  if (needle.length <= SUMMARY_EVIDENCE_CHARS) return haystack.includes(needle);
  for (let i = 0; i + SUMMARY_EVIDENCE_CHARS <= needle.length; i += 1) {
    if (haystack.includes(needle.slice(i, i + SUMMARY_EVIDENCE_CHARS))) return true;
  }
  return false;
}

/** The replayed state a question meets: its newest summary and the messages out of the queue. */
export interface SummaryState {
  text: string;
  evicted: ReadonlySet<MessageId>;
}

/** Reads the newest summary of `agent` and which of its messages the queue has evicted. */
export async function summaryState(store: MemoryStore, agent: Agent): Promise<SummaryState> {
  const summary = await store.latestSummary(agent.id);
  const out = await store.queryMessages(agent.id, { inContext: false });
  return { text: summary?.text ?? '', evicted: new Set(out.map((m) => m.id)) };
}
