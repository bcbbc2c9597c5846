import { describe, expect, it } from 'vitest';
import { buildStepSchema } from '../../../core/agent/step-schema';
import { createToolRegistry } from '../../../core/tools/tool-registry';
import { jsonSchemaToGbnf } from './json-schema-gbnf';

describe('JSON schema to GBNF (E43)', () => {
  it('E43: the step schema becomes a grammar with one alternative per tool and bounded strings', () => {
    const registry = createToolRegistry();
    const grammar = jsonSchemaToGbnf(buildStepSchema(registry.specs([]), 512));
    const rules = grammar.split('\n');
    expect(rules[0]).toMatch(/^root ::= /);
    for (const name of registry.names) expect(grammar).toContain(`"\\"${name}\\""`);
    // Every string is bounded; rule names are GBNF words.
    expect(grammar).not.toMatch(/char\*/);
    expect(grammar).toMatch(/char\{0,\d+\}/);
    for (const rule of rules) expect(rule).toMatch(/^[a-zA-Z0-9-]+ ::= /);
  });

  it('E43: optional keys may be left out, required ones may not', () => {
    const grammar = jsonSchemaToGbnf({
      type: 'object',
      properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'boolean' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(grammar).toContain(
      'root ::= "{" "\\"a\\"" ":" ws root-a ("," ws "\\"b\\"" ":" ws root-b)? "}"',
    );
  });

  it('E43: an unbounded string or an unsupported type is refused, not loosened', () => {
    expect(() => jsonSchemaToGbnf({ type: 'string' })).toThrow(/maxLength/);
    expect(() => jsonSchemaToGbnf({ type: 'number' })).toThrow(/subset/);
  });
});
