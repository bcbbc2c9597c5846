/**
 * Tiny structural validators for untrusted JSON (the backup importer). Each check returns the
 * value typed or throws a {@link CheckFailure} naming the JSON path. Objects reject unknown and
 * prototype-polluting keys, so nothing unexpected is ever written.
 */
export class CheckFailure extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

export type Check<T> = ((value: unknown, path: string) => T) & { optional?: true };

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

export function fail(path: string, message: string): never {
  throw new CheckFailure(path, message);
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

export function str(options: { min?: number; max: number }): Check<string> {
  return (v, path) => {
    if (typeof v !== 'string') fail(path, `expected a string, got ${describe(v)}`);
    if (v.length < (options.min ?? 0)) fail(path, `must not be empty`);
    if (v.length > options.max)
      fail(path, `is ${v.length} characters long; the limit is ${options.max}`);
    return v;
  };
}

export function num(
  options: { min?: number; max?: number; integer?: boolean } = {},
): Check<number> {
  return (v, path) => {
    if (typeof v !== 'number' || !Number.isFinite(v))
      fail(path, `expected a finite number, got ${describe(v)}`);
    if (options.integer && !Number.isInteger(v)) fail(path, `expected an integer, got ${v}`);
    if (options.min !== undefined && v < options.min)
      fail(path, `must be ≥ ${options.min}, got ${v}`);
    if (options.max !== undefined && v > options.max)
      fail(path, `must be ≤ ${options.max}, got ${v}`);
    return v;
  };
}

export const bool: Check<boolean> = (v, path) => {
  if (typeof v !== 'boolean') fail(path, `expected true or false, got ${describe(v)}`);
  return v;
};

export function oneOf<T extends string>(...values: T[]): Check<T> {
  return (v, path) => {
    if (typeof v !== 'string' || !(values as string[]).includes(v)) {
      fail(
        path,
        `expected one of ${values.map((x) => `"${x}"`).join(', ')}, got ${JSON.stringify(v)?.slice(0, 40)}`,
      );
    }
    return v as T;
  };
}

export function opt<T>(check: Check<T>): Check<T | undefined> {
  const c: Check<T | undefined> = (v, path) => (v === undefined ? undefined : check(v, path));
  c.optional = true;
  return c;
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, path) => (v === null ? null : check(v, path));
}

export function arr<T>(item: Check<T>, options: { max: number }): Check<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) fail(path, `expected an array, got ${describe(v)}`);
    if (v.length > options.max) fail(path, `has ${v.length} items; the limit is ${options.max}`);
    for (let i = 0; i < v.length; i += 1) item(v[i], `${path}[${i}]`);
    return v as T[];
  };
}

function plainObject(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    fail(path, `expected an object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

/** An object with exactly these keys (optional ones may be missing); unknown keys are an error. */
export function obj<T>(shape: { [K in keyof T]-?: Check<T[K]> }): Check<T> {
  const entries = Object.entries(shape) as Array<[string, Check<unknown>]>;
  return (v, path) => {
    const o = plainObject(v, path);
    for (const key of Object.keys(o)) {
      if (FORBIDDEN_KEYS.has(key)) fail(`${path}.${key}`, 'is a forbidden key');
      if (!(key in shape)) fail(`${path}.${key}`, 'is not a known field');
    }
    for (const [key, check] of entries) {
      if (!Object.hasOwn(o, key) && !check.optional) fail(`${path}.${key}`, 'is missing');
      check(o[key], `${path}.${key}`);
    }
    return o as T;
  };
}

/** A union tagged by `type`, one object check per tag. */
export function tagged<T>(variants: Record<string, Check<T>>): Check<T> {
  return (v, path) => {
    const o = plainObject(v, path);
    const tag = o.type;
    if (typeof tag !== 'string' || !Object.hasOwn(variants, tag)) {
      fail(
        `${path}.type`,
        `expected one of ${Object.keys(variants)
          .map((x) => `"${x}"`)
          .join(', ')}`,
      );
    }
    return variants[tag]!(v, path);
  };
}

/** Any JSON value up to `maxDepth`, with no forbidden keys (free-form settings and tool args). */
export function json(maxDepth = 32): Check<unknown> {
  const walk = (v: unknown, path: string, depth: number): void => {
    if (depth > maxDepth) fail(path, `nests deeper than ${maxDepth} levels`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail(path, 'expected a finite number');
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
      return;
    }
    if (typeof v === 'object') {
      for (const [key, x] of Object.entries(v)) {
        if (FORBIDDEN_KEYS.has(key)) fail(`${path}.${key}`, 'is a forbidden key');
        walk(x, `${path}.${key}`, depth + 1);
      }
      return;
    }
    fail(path, `expected a JSON value, got ${typeof v}`);
  };
  return (v, path) => {
    walk(v, path, 0);
    return v;
  };
}

export function record(maxDepth = 32): Check<Record<string, unknown>> {
  const inner = json(maxDepth);
  return (v, path) => {
    inner(plainObject(v, path), path);
    return v as Record<string, unknown>;
  };
}
