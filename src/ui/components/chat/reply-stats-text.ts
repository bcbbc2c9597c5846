/**
 * The line under a reply (A42, U328): which model wrote it, how long the user waited for its
 * first word, how fast it was written, and how much it read to begin — "Qwen2.5 0.5B · first word
 * 1.4 s · 18 tokens/s · read 1,240 new tokens in 1.1 s".
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
    stats.readTokens !== undefined && stats.readMs !== undefined
      ? `read ${stats.readTokens.toLocaleString('en')} new tokens in ${formatWait(stats.readMs)}`
      : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Below this a wait is not worth announcing: "is thinking…" says enough. */
const ANNOUNCED_WAIT_MS = 3000;

/**
 * The line while a step has no text yet (A43): "Juniper is reading 1,240 new tokens — about
 * 1 min 35 s on this device…" when the wait is long and known, else "Juniper is thinking…".
 */
export function thinkingText(name: string, wait: { tokens: number; ms: number } | null): string {
  if (!wait || wait.ms < ANNOUNCED_WAIT_MS) return `${name} is thinking…`;
  return `${name} is reading ${wait.tokens.toLocaleString('en')} new tokens — about ${formatWait(wait.ms)} on this device…`;
}
