/**
 * Reads a LoCoMo-format file (already `JSON.parse`d) into an {@link EvalDataset} (V1–V3): every
 * sample becomes a conversation whose turns carry their session's time and, for a shared photo,
 * its caption; questions keep their evidence ids, cleaned of the dataset's `"D8:6; D9:17"` joins.
 * A malformed file is a fault (`invalid_argument`) that names the offending path.
 */
import { AppError } from '../core/errors';
import type { EpochMs } from '../core/units';
import type { EvalConversation, EvalDataset, EvalQuestion, EvalTurn } from './eval-dataset';
import { parseSessionDate } from './parse-session-date';

/** Turns of one session are this far apart, so their order survives sorting by time (V1). */
export const TURN_SPACING_MS = 30_000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, what: string): never {
  throw new AppError('invalid_argument', `LoCoMo file: ${path} ${what}.`, { path });
}

function text(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return fail(path, 'is not a string');
}

/** The turn text as recall storage keeps it: the photo caption is part of the turn (V2). */
export function turnText(raw: Json): string {
  const base = typeof raw.text === 'string' ? raw.text.trim() : '';
  const caption = typeof raw.blip_caption === 'string' ? raw.blip_caption.trim() : '';
  if (caption === '') return base;
  return base === '' ? `[shares ${caption}]` : `${base} [shares ${caption}]`;
}

/** Evidence ids of one question, split where the dataset joined several into one string. */
export function evidenceIds(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const ids: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string') continue;
    for (const part of item.split(/[;,\s]+/)) if (part !== '') ids.push(part);
  }
  return [...new Set(ids)];
}

function sessionNumbers(conversation: Json): number[] {
  const numbers: number[] = [];
  for (const key of Object.keys(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

function parseConversation(sample: Json, index: number): EvalConversation {
  const path = `[${index}]`;
  const id = typeof sample.sample_id === 'string' ? sample.sample_id : `sample-${index + 1}`;
  const conversation = sample.conversation;
  if (!isObject(conversation)) fail(`${path}.conversation`, 'is missing');
  const speakers: [string, string] = [
    text(conversation.speaker_a, `${path}.conversation.speaker_a`),
    text(conversation.speaker_b, `${path}.conversation.speaker_b`),
  ];
  const turns: EvalTurn[] = [];
  for (const n of sessionNumbers(conversation)) {
    const sessionPath = `${path}.conversation.session_${n}`;
    const dateText = text(conversation[`session_${n}_date_time`], `${sessionPath}_date_time`);
    const start = parseSessionDate(dateText);
    if (start === null) fail(`${sessionPath}_date_time`, `("${dateText}") is not a session time`);
    const session = conversation[`session_${n}`];
    if (!Array.isArray(session)) fail(sessionPath, 'is not a list of turns');
    session.forEach((raw: unknown, i: number) => {
      if (!isObject(raw)) fail(`${sessionPath}[${i}]`, 'is not a turn');
      turns.push({
        id: text(raw.dia_id, `${sessionPath}[${i}].dia_id`),
        speaker: text(raw.speaker, `${sessionPath}[${i}].speaker`),
        text: turnText(raw),
        at: (start + i * TURN_SPACING_MS) as EpochMs,
        session: n,
      });
    });
  }
  const qa = Array.isArray(sample.qa) ? sample.qa : [];
  const questions: EvalQuestion[] = qa.map((raw: unknown, i: number) => {
    if (!isObject(raw)) fail(`${path}.qa[${i}]`, 'is not a question');
    return {
      id: `${id}#${i + 1}`,
      question: text(raw.question, `${path}.qa[${i}].question`),
      answer: raw.answer === undefined ? '' : text(raw.answer, `${path}.qa[${i}].answer`),
      evidence: evidenceIds(raw.evidence),
      category: typeof raw.category === 'number' ? raw.category : 0,
    };
  });
  return { id, speakers, turns, questions };
}

/** Parses LoCoMo JSON (an array of samples) named `name` (the file name). */
export function parseLocomo(json: unknown, name: string): EvalDataset {
  if (!Array.isArray(json)) fail('(top level)', 'is not a list of samples');
  return {
    name,
    conversations: json.map((sample: unknown, i: number) => {
      if (!isObject(sample)) fail(`[${i}]`, 'is not a sample');
      return parseConversation(sample, i);
    }),
  };
}
