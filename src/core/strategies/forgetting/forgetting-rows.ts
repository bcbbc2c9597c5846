/**
 * The forgetting containers as rows for the memory panel: one row per item with its
 * container, R, F, how close F is to F₀, whether it is pinned, and a one-line preview — the
 * numbers the UI shows (it never recomputes them).
 */
import type { ForgettingSettings } from '../../model';
import type { ForgettingItem, ForgettingState } from './forgetting-state';

export type ForgettingContainer = 'short_term' | 'long_term' | 'forget';

export interface ForgettingRow {
  id: string;
  container: ForgettingContainer;
  relevance: number;
  forget: number;
  /** F / F₀ clamped to [0, 1]: 1 means it will be forgotten at the next unrelated round. */
  forgetProgress: number;
  pinned: boolean;
  /** The first line of the exchange, at most `previewChars` characters. */
  preview: string;
  fromSeq: number;
  toSeq: number;
}

/** Rows of every item: short-term first (highest R first), then long-term (newest first). */
export function forgettingRows(
  state: ForgettingState,
  settings: ForgettingSettings,
  previewChars = 80,
): ForgettingRow[] {
  const row = (item: ForgettingItem, container: ForgettingContainer): ForgettingRow => {
    const first = item.lines[0]?.text.replace(/\s+/gu, ' ').trim() ?? '';
    const chars = [...first];
    return {
      id: item.id,
      container,
      relevance: item.relevance,
      forget: item.forget,
      forgetProgress: Math.min(1, Math.max(0, item.forget / settings.forgetThreshold)),
      pinned: item.pinned,
      preview:
        chars.length > previewChars ? `${chars.slice(0, previewChars - 1).join('')}…` : first,
      fromSeq: item.fromSeq,
      toSeq: item.toSeq,
    };
  };
  const pick = (ids: readonly string[]): ForgettingItem[] =>
    ids.map((id) => state.items[id]).filter((i): i is ForgettingItem => i !== undefined);
  return [
    ...pick(state.shortTerm)
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.relevance - a.relevance)
      .map((i) => row(i, 'short_term')),
    ...pick(state.forget).map((i) => row(i, 'forget')),
    ...pick(state.longTerm)
      .sort((a, b) => b.fromSeq - a.fromSeq)
      .map((i) => row(i, 'long_term')),
  ];
}
