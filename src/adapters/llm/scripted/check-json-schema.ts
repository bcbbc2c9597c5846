import type { JsonSchema } from '../../../core/ports/llm-engine';

/**
 * Checks a value against the subset of JSON Schema the agent's step schemas use: `type`,
 * `properties`, `required`, `enum`, `const`, `anyOf`, `oneOf`, `items`, `additionalProperties`,
 * `maxLength`, `minLength`, `minimum`, `maximum`. Returns the first violation as a sentence with
 * its JSON path, or null when the value conforms. Unknown keywords are ignored (as a grammar
 * engine would for annotations such as `description`).
 */
export function checkJsonSchema(value: unknown, schema: JsonSchema, path = '$'): string | null {
  if ('const' in schema && !deepEqual(value, schema.const)) {
    return `${path} must be ${JSON.stringify(schema.const)}.`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    return `${path} must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}.`;
  }
  if (Array.isArray(schema.anyOf)) {
    const ok = (schema.anyOf as JsonSchema[]).some((s) => checkJsonSchema(value, s, path) === null);
    if (!ok) return `${path} matches none of the allowed shapes.`;
  }
  if (Array.isArray(schema.oneOf)) {
    const matches = (schema.oneOf as JsonSchema[]).filter(
      (s) => checkJsonSchema(value, s, path) === null,
    ).length;
    if (matches !== 1) return `${path} must match exactly one allowed shape (matched ${matches}).`;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
    if (!types.some((t) => hasType(value, t)))
      return `${path} must be of type ${types.join(' or ')}.`;
  }
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) {
      return `${path} is longer than ${schema.maxLength} characters.`;
    }
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) {
      return `${path} is shorter than ${schema.minLength} characters.`;
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) {
      return `${path} must be at least ${schema.minimum}.`;
    }
    if (typeof schema.maximum === 'number' && value > schema.maximum) {
      return `${path} must be at most ${schema.maximum}.`;
    }
  }
  if (Array.isArray(value) && isSchema(schema.items)) {
    for (let i = 0; i < value.length; i += 1) {
      const problem = checkJsonSchema(value[i], schema.items, `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  if (isPlainObject(value)) return checkObject(value, schema, path);
  return null;
}

function checkObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
): string | null {
  const properties = isSchema(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required as string[]) {
      if (!(key in value)) return `${path} is missing the required property "${key}".`;
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties[key];
    if (childSchema) {
      const problem = checkJsonSchema(child, childSchema, `${path}.${key}`);
      if (problem) return problem;
    } else if (schema.additionalProperties === false) {
      return `${path} has the property "${key}", which is not allowed.`;
    } else if (isSchema(schema.additionalProperties)) {
      const problem = checkJsonSchema(child, schema.additionalProperties, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return null;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchema(value: unknown): value is JsonSchema {
  return isPlainObject(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
