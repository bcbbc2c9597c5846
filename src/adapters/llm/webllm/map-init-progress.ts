import type { InitProgressReport } from '@mlc-ai/web-llm';
import type { LoadProgress } from '../../../core/ports/llm-engine';

const MiB = 1024 * 1024;

/**
 * Maps web-llm's `InitProgressReport` (a 0..1 number and an English sentence) to the
 * {@link LoadProgress} union (rule E16). Downloads are recognised by web-llm's
 * "Fetching param cache[i/n]: X MB fetched" text; bytes come from that figure, the total is
 * inferred from the fraction. Loading from cache and shader compilation count as `compiling`.
 */
export function mapInitProgress(report: InitProgressReport): LoadProgress {
  const fraction = clamp01(report.progress);
  const text = report.text;
  const fetched = /Fetching param cache\[\d+\/\d+\]:\s*(\d+)\s*MB fetched/i.exec(text);
  if (fetched) {
    const loadedBytes = Number(fetched[1]) * MiB;
    const totalBytes = fraction > 0 ? Math.round(loadedBytes / fraction) : 0;
    return { type: 'downloading', fraction, loadedBytes, totalBytes, text };
  }
  if (/Loading model from cache|Loading GPU shader modules/i.test(text)) {
    return { type: 'compiling', fraction, text };
  }
  return { type: 'checking', text };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
