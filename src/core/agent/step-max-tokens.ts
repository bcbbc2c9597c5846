/**
 * How many tokens one step may generate (A40): the free window, not only the reply reserve. The
 * plan keeps `replyReserve` free at least; a reply may use everything the prompt leaves, less a
 * safety margin, so a long answer is not cut at a fixed 512 when 2,000 tokens lie unused.
 */
import type { ContextPlan } from '../context/plan-context';
import type { Tokens } from '../units';

/**
 * Tokens kept free below the window: an engine's chat template may count a few tokens more than
 * the plan's tokenizer (special tokens, a generation header), and a request past the window fails.
 */
export const STEP_SAFETY_TOKENS: Tokens = 64;
/**
 * The most one step generates, whatever the window: a 32k-window model writing 30,000 tokens
 * into one chat bubble is a runaway, not an answer. 4,096 is about 3,000 words.
 */
export const STEP_MAX_TOKENS_CAP: Tokens = 4096;
/**
 * A step generates at most this many times the reply reserve: a reply cut at the limit must
 * leave room to Continue it (A41) — the cut text stays in the queue and the continuation needs
 * its own reserve beside it — and with the default budgets (reserve = window / 8) this is half
 * the window, about 1,500 words for a 4k model.
 */
export const STEP_RESERVE_MULTIPLE = 4;
/**
 * The bound moves in steps of this size, so consecutive requests mostly carry the same JSON
 * schema (the reply's length bound grows with it) and the engine reuses its compiled grammar.
 */
const STEP_GRAIN: Tokens = 256;

/**
 * `max_tokens` of a step whose prompt is `plan`: the free window (window − prompt − safety
 * margin), rounded down to a multiple of 256, never below `replyReserve` (the plan always keeps
 * it free) and never above {@link STEP_RESERVE_MULTIPLE} reserves or {@link STEP_MAX_TOKENS_CAP}.
 */
export function stepMaxTokens(
  plan: Pick<ContextPlan, 'window' | 'total' | 'sections'>,
  replyReserve: Tokens,
): Tokens {
  const prompt = plan.total - plan.sections.reserve;
  const free = plan.window - prompt - STEP_SAFETY_TOKENS;
  const grained = Math.floor(free / STEP_GRAIN) * STEP_GRAIN;
  const cap = Math.min(STEP_MAX_TOKENS_CAP, STEP_RESERVE_MULTIPLE * replyReserve);
  return Math.max(replyReserve, Math.min(cap, grained));
}
