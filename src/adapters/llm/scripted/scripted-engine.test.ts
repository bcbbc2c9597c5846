import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../../../core/ports/llm-engine';
import { createLlama3Tokenizer } from '../../tokenizer/llama3-tokenizer';
import { checkJsonSchema } from './check-json-schema';
import { ScriptedEngine } from './scripted-engine';
import { createScriptedFromConfig } from './scripted-from-config';

const stepSchema = {
  type: 'object',
  properties: {
    tool: { type: 'string', enum: ['send_message', 'core_memory_append'] },
    arguments: {
      type: 'object',
      properties: { message: { type: 'string', maxLength: 20 } },
      required: ['message'],
      additionalProperties: false,
    },
    request_heartbeat: { type: 'boolean' },
  },
  required: ['tool', 'arguments'],
};

const ask = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [{ role: 'user', content }],
  maxTokens: 256,
  ...extra,
});

describe('ScriptedEngine', () => {
  it('E10: streams queued replies token by token, asynchronously, and records requests', async () => {
    const engine = new ScriptedEngine({ outputs: ['Hello there, friend.', 'second'] });
    const deltas: string[] = [];
    const pending = engine.complete(ask('hi', { onDelta: (d) => deltas.push(d) }));
    expect(deltas).toEqual([]); // nothing is delivered synchronously
    const result = await pending;
    expect(result).toMatchObject({ text: 'Hello there, friend.', finishReason: 'stop' });
    expect(deltas.length).toBe(createLlama3Tokenizer().count('Hello there, friend.'));
    expect(deltas.join('')).toBe('Hello there, friend.');
    expect(result.completionTokens).toBe(deltas.length);
    expect((await engine.complete(ask('again'))).text).toBe('second');
    expect(engine.requests.map((r) => r.messages[0]?.content)).toEqual(['hi', 'again']);
  });

  it('E10: Chinese replies stream without splitting characters', async () => {
    const engine = new ScriptedEngine({ outputs: ['我的生日是三月五号。'] });
    const deltas: string[] = [];
    await engine.complete(ask('生日', { onDelta: (d) => deltas.push(d) }));
    expect(deltas.join('')).toBe('我的生日是三月五号。');
    expect(deltas.some((d) => d.includes('\uFFFD'))).toBe(false);
  });

  it('E10: a rule computes replies from the request; push adds to the queue first', async () => {
    const engine = new ScriptedEngine({
      rule: (req, i) => `echo ${i}: ${req.messages.at(-1)?.content ?? ''}`,
    });
    expect((await engine.complete(ask('one'))).text).toBe('echo 0: one');
    engine.push('queued');
    expect((await engine.complete(ask('two'))).text).toBe('queued');
    expect((await engine.complete(ask('three'))).text).toBe('echo 2: three');
  });

  it('E11: aborting the signal or interrupting rejects with cancelled mid-stream', async () => {
    const long = 'word '.repeat(200);
    const engine = new ScriptedEngine({ outputs: [long, long] });
    const controller = new AbortController();
    let seen = 0;
    const a = engine.complete(
      ask('x', {
        signal: controller.signal,
        onDelta: () => {
          seen += 1;
          if (seen === 3) controller.abort();
        },
      }),
    );
    await expect(a).rejects.toMatchObject({ code: 'cancelled' });
    expect(seen).toBe(3);
    let seen2 = 0;
    const b = engine.complete(
      ask('y', {
        onDelta: () => {
          seen2 += 1;
          if (seen2 === 2) void engine.interrupt();
        },
      }),
    );
    await expect(b).rejects.toMatchObject({ code: 'cancelled' });
    expect(seen2).toBeLessThan(10);
  });

  it('E11: an interrupt from a timer stops a long stream part-way', async () => {
    const engine = new ScriptedEngine({ outputs: ['word '.repeat(2000)] });
    let n = 0;
    const call = engine.complete(ask('x', { maxTokens: 5000, onDelta: () => (n += 1) }));
    setTimeout(() => void engine.interrupt(), 5);
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(2000);
  });

  it('E12: with a JSON schema, a conforming reply passes and a breaking one is schema_violation', async () => {
    const good = JSON.stringify({ tool: 'send_message', arguments: { message: 'hi' } });
    const engine = new ScriptedEngine({
      outputs: [good, JSON.stringify({ tool: 'shout', arguments: { message: 'hi' } }), 'not json'],
    });
    await expect(engine.complete(ask('a', { jsonSchema: stepSchema }))).resolves.toMatchObject({
      text: good,
    });
    await expect(engine.complete(ask('b', { jsonSchema: stepSchema }))).rejects.toMatchObject({
      code: 'schema_violation',
      message: expect.stringMatching(/\$\.tool must be one of/),
    });
    await expect(engine.complete(ask('c', { jsonSchema: stepSchema }))).rejects.toMatchObject({
      code: 'schema_violation',
    });
  });

  it('E13: maxTokens cuts the reply with finishReason length; an oversized prompt is context_window_exceeded', async () => {
    const engine = new ScriptedEngine({
      outputs: ['one two three four five six'],
      contextWindow: 50,
    });
    const result = await engine.complete(ask('x', { maxTokens: 3 }));
    expect(result.finishReason).toBe('length');
    expect(result.completionTokens).toBe(3);
    expect(result.text).toBe('one two three');
    await expect(engine.complete(ask('word '.repeat(100)))).rejects.toMatchObject({
      code: 'context_window_exceeded',
    });
  });

  it('E13: prompt tokens are the real Llama 3 count plus the template overhead', async () => {
    const engine = new ScriptedEngine({ outputs: ['ok'] });
    const result = await engine.complete({
      messages: [
        { role: 'system', content: 'You are Loci.' },
        { role: 'user', content: 'Remember that my sister is called Ana.' },
      ],
      maxTokens: 10,
    });
    const t = createLlama3Tokenizer();
    expect(result.promptTokens).toBe(
      t.count('You are Loci.') + t.count('Remember that my sister is called Ana.') + 10,
    );
    expect(engine.contextWindow()).toBe(4096);
  });

  it('E10: chunkChars streams fixed-size chunks; unloaded engines refuse to complete', async () => {
    const engine = new ScriptedEngine({ outputs: ['abcdefg'], chunkChars: 3 });
    const deltas: string[] = [];
    await engine.complete(ask('x', { onDelta: (d) => deltas.push(d) }));
    expect(deltas).toEqual(['abc', 'def', 'g']);
    await engine.unload();
    expect(engine.modelId).toBeNull();
    await expect(engine.complete(ask('x'))).rejects.toMatchObject({ code: 'model_not_loaded' });
    const progress: string[] = [];
    await engine.load('m', (p) => progress.push(p.type));
    expect(progress.at(-1)).toBe('ready');
    expect(engine.modelId).toBe('m');
  });
});

describe('the scripted engine as a CPU engine (A43)', () => {
  it('says what it reused and reads the rest at its speed before the first piece', async () => {
    const engine = createScriptedFromConfig({ outputs: ['one', 'two'], readTokensPerSecond: 1000 });
    expect(engine.prefixCache).toBe(true);
    const counter = createLlama3Tokenizer();
    const system = { role: 'system' as const, content: 'You are Loci. '.repeat(80) };
    const first = await engine.complete({
      messages: [system, { role: 'user', content: 'Hi.' }],
      maxTokens: 16,
    });
    expect(first.cachedTokens).toBe(0);
    let firstPieceMs = 0;
    const started = performance.now();
    const second = await engine.complete({
      messages: [system, { role: 'user', content: 'How are you?' }],
      maxTokens: 16,
      onDelta: () => {
        firstPieceMs ||= performance.now() - started;
      },
    });
    // The system message is held; only the new user message is read.
    expect(second.cachedTokens).toBe(counter.countMessage('system', system.content));
    const read = second.promptTokens! - second.cachedTokens!;
    expect(read).toBeGreaterThan(0);
    expect(firstPieceMs).toBeGreaterThanOrEqual(read - 5); // 1,000 tokens/s: 1 ms a token
  });
});

describe('checkJsonSchema', () => {
  it('E12: covers type, required, enum, const, anyOf, oneOf, items, additionalProperties, maxLength', () => {
    expect(
      checkJsonSchema({ tool: 'send_message', arguments: { message: 'x' } }, stepSchema),
    ).toBeNull();
    expect(checkJsonSchema({ tool: 'send_message' }, stepSchema)).toMatch(
      /missing the required property "arguments"/,
    );
    expect(
      checkJsonSchema({ tool: 'send_message', arguments: { message: 'x', extra: 1 } }, stepSchema),
    ).toMatch(/"extra", which is not allowed/);
    expect(
      checkJsonSchema({ tool: 'send_message', arguments: { message: 'x'.repeat(21) } }, stepSchema),
    ).toMatch(/longer than 20/);
    expect(checkJsonSchema('a', { const: 'b' })).toMatch(/must be "b"/);
    expect(checkJsonSchema(3, { anyOf: [{ type: 'string' }, { type: 'integer' }] })).toBeNull();
    expect(checkJsonSchema(3.5, { anyOf: [{ type: 'string' }, { type: 'integer' }] })).toMatch(
      /none/,
    );
    expect(checkJsonSchema(3, { oneOf: [{ type: 'number' }, { type: 'integer' }] })).toMatch(
      /exactly one/,
    );
    expect(checkJsonSchema([1, 'x'], { type: 'array', items: { type: 'number' } })).toMatch(
      /\$\[1\]/,
    );
    expect(checkJsonSchema(null, { type: ['string', 'null'] })).toBeNull();
  });
});

describe("the e2e build's scripted engine (E18)", () => {
  it('E18: a summary request between two steps goes to the rules and leaves the queued step for the next turn', async () => {
    const step = JSON.stringify({
      thinking: 'Hi.',
      function: 'send_message',
      arguments: { message: 'Reply 23' },
      request_heartbeat: false,
    });
    const engine = createScriptedFromConfig({
      outputs: [step],
      rules: [{ pattern: '^Previous summary:', reply: 'Summary: they talked.' }],
      fallback: 'OK.',
    });
    await engine.load('scripted-llama3');
    const summary = await engine.complete(ask('Previous summary: none\nNew messages: …'));
    expect(summary.text).toBe('Summary: they talked.');
    const schema = { type: 'object' };
    const next = await engine.complete(ask('Message number 23.', { jsonSchema: schema }));
    expect(next.text).toBe(step);
  });
});
