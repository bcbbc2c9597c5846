import type { EpochMs } from '../core/units';
import { MONTH_NAMES as MONTHS } from '../core/text/month-names';

const PATTERN =
  /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i;

/**
 * Parses a LoCoMo session time such as `1:56 pm on 8 May, 2023` into epoch ms, read as UTC
 * (the dataset names no zone; UTC keeps the dates the app renders equal to the dataset's) (V1).
 * Month names may be abbreviated to three letters. Returns `null` for anything else, so the
 * loader can say which session is malformed.
 */
export function parseSessionDate(text: string): EpochMs | null {
  const match = PATTERN.exec(text);
  if (!match) return null;
  const [, hh, mm, ampm, dd, monthName, yyyy] = match;
  const month = MONTHS.findIndex(
    (name) => name === monthName?.toLowerCase() || name.slice(0, 3) === monthName?.toLowerCase(),
  );
  const hour12 = Number(hh);
  const minute = Number(mm);
  const day = Number(dd);
  if (month < 0 || hour12 < 1 || hour12 > 12 || minute > 59 || day < 1 || day > 31) return null;
  const hour = (hour12 % 12) + (ampm?.toLowerCase() === 'p' ? 12 : 0);
  const at = Date.UTC(Number(yyyy), month, day, hour, minute);
  // Date.UTC rolls 31 June over to 1 July; reject instead of shifting the session.
  if (new Date(at).getUTCDate() !== day) return null;
  return at;
}
