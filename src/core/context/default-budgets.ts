import type { ContextBudgets } from '../model';
import type { Tokens } from '../units';

const clamp = (value: number, low: number, high: number): number =>
  Math.min(high, Math.max(low, Math.round(value)));

/**
 * Default budgets for a model window (C13; reasons in ADR 0031, recall in ADRs 0072 and 0074). For 4096
 * tokens: 512 reply reserve, 1434 recall, 256 summary, warning 0.7, flush 1.0 (the prompt plus
 * the reserve no longer fit), target 0.5, 10 steps, 3 invalid steps in a row.
 */
export function defaultBudgets(window: Tokens): ContextBudgets {
  return {
    replyReserve: clamp(window / 8, 256, 1024),
    recallBudget: clamp(window * 0.35, 128, 2048),
    warningFraction: 0.7,
    flushFraction: 1.0,
    targetFraction: 0.5,
    summaryMaxTokens: clamp(window / 16, 96, 512),
    maxSteps: 10,
    maxInvalidSteps: 3,
  };
}
