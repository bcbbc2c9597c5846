/**
 * The context bar's view model (U50): the last plan's sections in prompt order plus the free
 * part of the window, each as a share of the window, and the warning / flush / target marks.
 * It only reads the plan; it never estimates tokens itself.
 */
import type { ContextBudgets } from '../../../core/model';
import type { ContextPlan, SectionName } from '../../../core/context/plan-context';
import type { Tokens } from '../../../core/units';

export type BarPart = SectionName | 'free';

export interface BarSegment {
  part: BarPart;
  label: string;
  tokens: Tokens;
  /** Share of the window, 0…1. */
  share: number;
}

export interface BarMark {
  type: 'warning' | 'flush' | 'target';
  label: string;
  /** Position as a share of the window, 0…1. */
  at: number;
  tokens: Tokens;
}

export interface ContextBarModel {
  window: Tokens;
  used: Tokens;
  segments: BarSegment[];
  marks: BarMark[];
  /** Which mark the prompt has passed, if any. */
  pressure: 'ok' | 'warning' | 'flush';
}

export const PART_LABEL: Record<BarPart, string> = {
  system: 'System',
  tools: 'Tools',
  core: 'Core memory',
  summary: 'Summary',
  memories: 'Relevant memories',
  messages: 'Messages',
  reserve: 'Reply reserve',
  free: 'Free',
};

const ORDER: readonly SectionName[] = [
  'system',
  'tools',
  'core',
  'summary',
  'memories',
  'messages',
  'reserve',
];

/** The bar for `plan` under `budgets`; shares add up to 1 (U50). */
export function contextBarModel(plan: ContextPlan, budgets: ContextBudgets): ContextBarModel {
  const window = plan.window;
  const share = (tokens: number) => (window > 0 ? tokens / window : 0);
  const segments: BarSegment[] = ORDER.map((part) => ({
    part,
    label: PART_LABEL[part],
    tokens: plan.sections[part],
    share: share(plan.sections[part]),
  }));
  const free = Math.max(0, window - plan.total);
  segments.push({ part: 'free', label: PART_LABEL.free, tokens: free, share: share(free) });
  const mark = (type: BarMark['type'], label: string, fraction: number): BarMark => ({
    type,
    label,
    at: Math.min(1, Math.max(0, fraction)),
    tokens: Math.floor(fraction * window),
  });
  const marks = [
    // The same words as the agent's settings (U323).
    mark('target', 'Kept after a summary', budgets.targetFraction),
    mark('warning', 'Reminder to save', budgets.warningFraction),
    mark('flush', 'Older messages summarized', budgets.flushFraction),
  ];
  // The queue manager compares the prompt without the reply reserve against the marks.
  const used = plan.total - plan.sections.reserve;
  const pressure =
    used >= budgets.flushFraction * window
      ? 'flush'
      : used >= budgets.warningFraction * window
        ? 'warning'
        : 'ok';
  return { window, used: plan.total, segments, marks, pressure };
}
