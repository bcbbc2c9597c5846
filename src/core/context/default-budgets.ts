import type { ContextBudgets } from '../model';
import type { Tokens } from '../units';

/** Recalled memory's share of the window: every recalled line in the prompt fits it (ADR 0203). */
export const RECALL_SHARE = 0.15;
/** How far below the flush point, as a share of the window, the memory-pressure warning sits. */
export const WARNING_LEAD = 0.03;

const clamp = (value: number, low: number, high: number): number =>
  Math.min(high, Math.max(low, Math.round(value)));

/**
 * Default budgets for a model window (C13; reasons in ADR 0031, recall and warning in ADR 0203).
 * For 4096 tokens: 512 reply reserve, 614 recall, 256 summary, warning 0.84 (3 % of the window
 * before the flush point), flush 1.0 (the prompt plus the reserve no longer fit), target 0.5,
 * 10 steps, 3 invalid steps in a row.
 */
export function defaultBudgets(window: Tokens): ContextBudgets {
  const replyReserve = clamp(window / 8, 256, 1024);
  return {
    replyReserve,
    recallBudget: clamp(window * RECALL_SHARE, 128, 2048),
    // The model is warned when a flush is a turn or two away, not for half the queue's life:
    // that is when saving something is worth a step (ADR 0203).
    warningFraction: Math.floor(((window - replyReserve) / window - WARNING_LEAD) * 100) / 100,
    flushFraction: 1.0,
    targetFraction: 0.5,
    summaryMaxTokens: clamp(window / 16, 96, 512),
    maxSteps: 10,
    maxInvalidSteps: 3,
  };
}
