import { err, ok, type Result } from '../result';
import type { ParamSpec, ToolSpec } from './tool';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD` as a UTC day; null when it is not a real date. */
export function parseDay(value: string): number | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const at = Date.UTC(y, m - 1, d);
  const back = new Date(at);
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d
    ? at
    : null;
}

function checkParam(tool: string, spec: ParamSpec, value: unknown): Result<unknown, string> {
  const name = `\`${spec.name}\``;
  if (spec.type === 'integer') {
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      return err(
        `${name} of ${tool} must be a whole number (${spec.description}), got ${JSON.stringify(value)}.`,
      );
    }
    if (spec.minimum !== undefined && n < spec.minimum) {
      return err(`${name} of ${tool} must be at least ${spec.minimum}, got ${n}.`);
    }
    return ok(n);
  }
  if (typeof value !== 'string') {
    return err(
      `${name} of ${tool} must be a string (${spec.description}), got ${JSON.stringify(value)}.`,
    );
  }
  if (spec.required && value.trim() === '' && spec.name !== 'new_content') {
    return err(`${name} of ${tool} is empty; give ${spec.description}.`);
  }
  // Characters as grammars count them (code points), not UTF-16 units.
  const chars = [...value].length;
  if (spec.maxLength !== undefined && chars > spec.maxLength) {
    return err(
      `${name} of ${tool} is ${chars} chars; the most is ${spec.maxLength}, so shorten it.`,
    );
  }
  if (spec.options && !spec.options.includes(value)) {
    return err(`${name} of ${tool} must be one of: ${spec.options.join(', ')} (got "${value}").`);
  }
  if (spec.format === 'date' && parseDay(value) === null) {
    return err(`${name} of ${tool} must be a date like 2026-03-04 (YYYY-MM-DD), got "${value}".`);
  }
  return ok(value);
}

/**
 * Validates a step's arguments against a tool's spec (T2): an object, only known names, each
 * required one present and of the right type. Integers may come as digit strings (small models
 * write `"page": "2"`). An optional `page` defaults to 1. Failure is one sentence the model can
 * act on, naming the valid options.
 */
export function validateArgs(
  spec: ToolSpec,
  args: unknown,
): Result<Record<string, unknown>, string> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    const names = spec.params.map((p) => p.name).join(', ');
    return err(`The arguments of ${spec.name} must be an object with: ${names}.`);
  }
  const given = args as Record<string, unknown>;
  const valid = spec.params.map((p) => p.name);
  const unknown = Object.keys(given).filter((key) => !valid.includes(key));
  if (unknown.length > 0) {
    return err(
      `${spec.name} has no argument ${unknown.map((k) => `\`${k}\``).join(', ')}; valid: ${valid.join(', ')}.`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const param of spec.params) {
    const value = given[param.name];
    if (value === undefined || value === null) {
      if (param.required) {
        return err(`${spec.name} needs \`${param.name}\` (${param.description}).`);
      }
      if (param.name === 'page') out.page = 1;
      continue;
    }
    const checked = checkParam(spec.name, param, value);
    if (!checked.ok) return checked;
    out[param.name] = checked.value;
  }
  return ok(out);
}
