/**
 * The line under a reply (A42, U328): which model wrote it, how long the user waited for its
 * first word, and how fast it was written — "Qwen2.5 0.5B · first word 1.4 s · 18 tokens/s".
 * Parts that were not measured are left out; null when nothing is known.
 */
import type { ReplyStats } from '../../../core/model';

/** "0.8 s", "12 s", "2 min 5 s": a wait as a person reads it. */
export function formatWait(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  const rest = whole % 60;
  return `${Math.floor(whole / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
}

/** Tokens per second of decoding, when both figures are there and the time is not zero. */
export function tokensPerSecond(stats: ReplyStats): number | null {
  if (stats.tokens === undefined || !stats.decodeMs) return null;
  return stats.tokens / (stats.decodeMs / 1000);
}

export function replyStatsText(
  stats: ReplyStats | undefined,
  modelName: (id: string) => string = (id) => id,
): string | null {
  if (!stats) return null;
  const rate = tokensPerSecond(stats);
  const parts = [
    stats.model ? modelName(stats.model) : null,
    stats.firstWordMs !== undefined ? `first word ${formatWait(stats.firstWordMs)}` : null,
    rate !== null
      ? `${rate >= 10 ? Math.round(rate).toLocaleString('en') : rate.toFixed(1)} tokens/s`
      : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}
