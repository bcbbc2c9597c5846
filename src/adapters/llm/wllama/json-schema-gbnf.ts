import { AppError } from '../../../core/errors';
import type { JsonSchema } from '../../../core/ports/llm-engine';

/**
 * Every Unicode scalar value above ASCII that text may hold: from U+00A0, surrogates excluded.
 * The C1 controls U+0080–U+009F are left out on purpose (ADR 0116): llama.cpp's grammar decodes
 * a lone UTF-8 continuation byte as the code point of its value, so allowing them lets a stray
 * byte 0x80–0x9F through. (A stray 0xA0–0xBF reads as a real Latin-1 character and an overlong
 * form as a real code point; a code-point grammar cannot refuse those, the engine recovers.)
 */
const TEXT_ABOVE_ASCII = '\\u00A0-\\uD7FF\\uE000-\\U0010FFFF';

/**
 * A llama.cpp GBNF grammar for the JSON-schema subset the step schemas use (rule E43): `anyOf`,
 * objects with `properties` / `required` / `additionalProperties: false`, `const`, `enum`,
 * `string` with `maxLength`, `integer` with `minimum` 0 or 1, `boolean`. Objects are written
 * compactly (one optional space after `:` and `,`), required keys first in declared order, then
 * the optional ones in order, so every string, number and gap is bounded and a step can never
 * run on. Anything outside the subset is a fault (`invalid_argument`), never a silently looser
 * grammar.
 *
 * Why not llama.cpp's own converter: wllama 3.13 fails a top-level `json_schema` ("Failed to
 * initialize samplers") and, with chat parsing on, rejects some grammar-valid random outputs
 * (ADR 0111); a GBNF `grammar` with chat parsing off works in both.
 */
export function jsonSchemaToGbnf(schema: JsonSchema): string {
  const rules = new Map<string, string>();
  const add = (raw: string, body: string): string => {
    // GBNF rule names are letters, digits and dashes.
    const name = raw.replace(/[^a-zA-Z0-9-]/g, '-');
    let unique = name;
    for (let i = 2; rules.has(unique) && rules.get(unique) !== body; i += 1) unique = `${name}${i}`;
    rules.set(unique, body);
    return unique;
  };
  add('ws', '" "?');
  // A JSON string character as valid Unicode: printable ASCII but `"` and `\\`, then every scalar
  // value from U+00A0 up except surrogates. `[^"\\…]` would let a random token's stray byte (0xF5…)
  // through, which is not UTF-8 and breaks llama.cpp's streaming (ADR 0111). The C1 controls
  // U+0080–U+009F are left out too: llama.cpp's grammar reads a lone continuation byte 0x80–0xBF
  // as the code point of the same value, so allowing them lets invalid UTF-8 through (ADR 0116).
  add(
    'char',
    `[\\x20-\\x21\\x23-\\x5B\\x5D-\\x7E${TEXT_ABOVE_ASCII}] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})`,
  );
  const root = visit(schema, 'root', add);
  if (root !== 'root') rules.set('root', root);
  const lines = [`root ::= ${rules.get('root')}`];
  for (const [name, body] of rules) if (name !== 'root') lines.push(`${name} ::= ${body}`);
  return lines.join('\n');
}

type Add = (name: string, body: string) => string;

const literal = (value: unknown): string => JSON.stringify(JSON.stringify(value));

function visit(schema: JsonSchema, name: string, add: Add): string {
  if (Array.isArray(schema.anyOf)) {
    const options = (schema.anyOf as JsonSchema[]).map((s, i) => visit(s, `${name}-${i}`, add));
    return add(name, options.join(' | '));
  }
  if ('const' in schema) return add(name, literal(schema.const));
  if (Array.isArray(schema.enum)) {
    return add(name, (schema.enum as unknown[]).map(literal).join(' | '));
  }
  switch (schema.type) {
    case 'string': {
      const max = schema.maxLength;
      if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
        throw new AppError('invalid_argument', `The string "${name}" needs a maxLength.`);
      }
      return add(name, `"\\"" char{0,${max}} "\\""`);
    }
    case 'integer': {
      // Up to 9 digits: any page or count a step needs, never an endless number.
      const min = schema.minimum;
      if (min === 1) return add(name, '[1-9] [0-9]{0,8}');
      if (min === 0) return add(name, '"0" | [1-9] [0-9]{0,8}');
      if (min === undefined) return add(name, '"-"? ("0" | [1-9] [0-9]{0,8})');
      throw new AppError('invalid_argument', `The integer "${name}" has an unsupported minimum.`);
    }
    case 'boolean':
      return add(name, '"true" | "false"');
    case 'object':
      return add(name, objectBody(schema, name, add));
    default:
      throw new AppError('invalid_argument', `The schema "${name}" is outside the step subset.`);
  }
}

function objectBody(schema: JsonSchema, name: string, add: Add): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const keys = Object.keys(properties);
  const member = (key: string): string =>
    `${literal(key)} ":" ws ${visit(properties[key] ?? {}, `${name}-${key}`, add)}`;
  const must = keys.filter((k) => required.has(k)).map(member);
  const may = keys.filter((k) => !required.has(k)).map(member);
  if (must.length > 0) {
    const tail = may.map((m) => `("," ws ${m})?`);
    return `"{" ${[must.join(' "," ws '), ...tail].join(' ')} "}"`;
  }
  if (may.length === 0) return '"{" "}"';
  // No required key: any ordered subset, the first one present without a comma.
  const from = (i: number): string =>
    may
      .slice(i)
      .map(
        (m, j) =>
          `${m}${may
            .slice(i + j + 1)
            .map((n) => ` ("," ws ${n})?`)
            .join('')}`,
      )
      .join(' | ');
  return `"{" (${from(0)})? "}"`;
}

/**
 * The grammar of a free-text request (a summary): any valid Unicode text. Without it a model can
 * emit a byte that is not UTF-8 (0xC0, 0xF5…: the random fixture does), which aborts llama.cpp's
 * streaming (ADR 0111).
 */
export const VALID_TEXT_GBNF = `root ::= [\\x09\\x0A\\x0D\\x20-\\x7E${TEXT_ABOVE_ASCII}]*`;
