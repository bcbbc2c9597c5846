/**
 * Turns the recall / archival browser's form into a search call (U56): text → a search in the
 * chosen mode (with the date range as a filter); no text but a date range → search by date;
 * neither → a sentence asking for one.
 */
import type { AgentId } from '../../../core/model';
import type { SearchMode, SearchQuery } from '../../../core/ports/memory-search';
import type { VectorKind } from '../../../core/ports/vector-index';
import { err, ok, type Result } from '../../../core/result';
import type { EpochMs } from '../../../core/units';

export interface SearchForm {
  text: string;
  mode: SearchMode;
  /** `yyyy-mm-dd` from `<input type="date">`, or ''. */
  fromDate: string;
  toDate: string;
  page: number;
  pageSize: number;
}

export type SearchRequest =
  | { type: 'search'; query: SearchQuery }
  | { type: 'date'; agentId: AgentId; from: EpochMs; to: EpochMs; page: number; pageSize: number };

const DAY_MS = 86_400_000;

/** Local midnight of a `yyyy-mm-dd` date, or null when it is not one. */
function dayStart(value: string): EpochMs | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const at = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
  return Number.isNaN(at) ? null : at;
}

export function searchRequest(
  agentId: AgentId,
  kinds: VectorKind[],
  form: SearchForm,
): Result<SearchRequest, string> {
  const text = form.text.trim();
  const from = form.fromDate ? dayStart(form.fromDate) : null;
  // The "to" day is inclusive: up to the last millisecond before the next midnight.
  const toStart = form.toDate ? dayStart(form.toDate) : null;
  const to = toStart === null ? null : toStart + DAY_MS - 1;
  if (form.fromDate && from === null) return err('The start date is not a date.');
  if (form.toDate && to === null) return err('The end date is not a date.');
  if (from !== null && to !== null && from > to)
    return err('The start date is after the end date.');
  const page = Math.max(1, Math.floor(form.page));
  if (text === '') {
    if (from === null && to === null) return err('Type something to search for, or pick dates.');
    return ok({
      type: 'date',
      agentId,
      from: from ?? 0,
      to: to ?? Number.MAX_SAFE_INTEGER,
      page,
      pageSize: form.pageSize,
    });
  }
  const query: SearchQuery = {
    agentId,
    text,
    kinds,
    mode: form.mode,
    page,
    pageSize: form.pageSize,
  };
  if (from !== null) query.from = from;
  if (to !== null) query.to = to;
  return ok({ type: 'search', query });
}

/** "11–20 of 34", or "No results". */
export function pageRange(page: number, pageSize: number, shown: number, total: number): string {
  if (total === 0) return 'No results';
  const first = (page - 1) * pageSize + 1;
  return `${first}–${first + shown - 1} of ${total}`;
}
