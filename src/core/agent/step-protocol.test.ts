import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../tools/tool-registry';
import type { CoreBlock } from '../model';
import { parseStep } from './parse-step';
import { partialMessage } from './partial-message';
import { buildStepSchema, replyMaxChars, THINKING_MAX_CHARS } from './step-schema';

const registry = createToolRegistry();
const blocks = [
  { label: 'human', readOnly: false },
  { label: 'persona', readOnly: false },
] as CoreBlock[];
const specs = registry.specs(blocks);

describe('step protocol', () => {
  it('A1: the schema is an anyOf of one object per tool with a const function name', () => {
    const schema = buildStepSchema(specs, 512) as {
      anyOf: Array<{ properties: Record<string, Record<string, unknown>>; required: string[] }>;
    };
    expect(schema.anyOf.map((s) => s.properties.function?.const)).toEqual(registry.names);
    const append = schema.anyOf[1];
    expect(append?.required).toEqual(['thinking', 'function', 'arguments', 'request_heartbeat']);
    expect(append?.properties.arguments).toMatchObject({
      properties: { label: { type: 'string', enum: ['human', 'persona'] } },
      required: ['label', 'content'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schema)).not.toMatch(/\$ref|pattern|oneOf/);
  });

  it('E51: the reply may be as long as the reply reserve holds; other strings keep their bound', () => {
    const replyBound = (reserve: number) => {
      const schema = buildStepSchema(specs, reserve) as {
        anyOf: Array<{ properties: Record<string, { properties?: Record<string, unknown> }> }>;
      };
      const send = schema.anyOf.find(
        (s) => (s.properties.function as { const?: string }).const === 'send_message',
      );
      return (send?.properties.arguments?.properties?.message as { maxLength: number }).maxLength;
    };
    // A 1,500-token reserve holds a reply of ~3,000 characters (100 sentences), not 800.
    expect(replyBound(1500)).toBe(replyMaxChars(1500));
    expect(replyBound(1500)).toBeGreaterThan(3000);
    expect(replyBound(4000)).toBeGreaterThan(replyBound(1500));
    // A small reserve still allows a few paragraphs, and the step as a whole stays bounded.
    expect(replyBound(256)).toBe(800);
    expect(replyMaxChars(1500) + THINKING_MAX_CHARS).toBeLessThanOrEqual(1500 * 2.5);
    // A long reply from an engine that ignores the grammar is not refused by validation.
    const long = 'Sentence of a long answer. '.repeat(120);
    const step = JSON.stringify({
      thinking: 'Answer.',
      function: 'send_message',
      arguments: { message: long },
      request_heartbeat: false,
    });
    expect(parseStep(step, registry, specs)).toMatchObject({ type: 'call' });
  });

  it('A2: bad JSON, a missing or unknown function and bad arguments are feedback', () => {
    expect(parseStep('{"thinking": "x", "function": ', registry, specs)).toMatchObject({
      type: 'invalid',
      feedback: expect.stringMatching(
        /^Your step was not valid JSON \(.*\); reply with exactly one JSON object like/,
      ),
    });
    expect(parseStep('{"thinking":"x"}', registry, specs)).toMatchObject({
      feedback: `Your step has no "function"; use one of: ${registry.names.join(', ')}.`,
    });
    expect(parseStep('{"function":"send_msg","arguments":{}}', registry, specs)).toMatchObject({
      name: 'send_msg',
      feedback: expect.stringContaining(
        'There is no function "send_msg"; use one of: send_message,',
      ),
    });
    expect(
      parseStep('{"function":"send_message","arguments":{"text":"hi"}}', registry, specs),
    ).toMatchObject({
      feedback: 'send_message has no argument `text`; valid: message.',
    });
  });

  it('A2: a fenced step with string booleans and digit pages is accepted', () => {
    const parsed = parseStep(
      '```json\n{"thinking":"look","function":"conversation_search","arguments":{"query":"cat","page":"2"},"request_heartbeat":"true"}\n```',
      registry,
      specs,
    );
    expect(parsed).toMatchObject({
      type: 'call',
      name: 'conversation_search',
      arguments: { query: 'cat', page: 2 },
      heartbeat: true,
    });
  });

  it('A9: the send_message text streams out of partial JSON, escapes included', () => {
    const full = JSON.stringify({
      thinking: 'hi "there"',
      function: 'send_message',
      arguments: { message: 'Line 1\nSays "ok" \u00e9' },
      request_heartbeat: false,
    });
    const seen: string[] = [];
    for (let i = 1; i <= full.length; i += 1) {
      const text = partialMessage(full.slice(0, i));
      if (text !== null && text !== seen.at(-1)) seen.push(text);
    }
    expect(seen.at(-1)).toBe('Line 1\nSays "ok" \u00e9');
    for (let i = 1; i < seen.length; i += 1)
      expect(seen[i]?.startsWith(seen[i - 1] ?? '')).toBe(true);
    expect(
      partialMessage(
        '{"thinking":"x","function":"archival_memory_insert","arguments":{"message":"no"',
      ),
    ).toBeNull();
  });
});
