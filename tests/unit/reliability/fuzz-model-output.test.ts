/**
 * X10–X13: fuzzed model output through the real `runTurn` (in-memory store, ScriptedEngine rule
 * producing the fuzz, schema enforcement off — the grammar is what a broken or non-grammar engine
 * would skip). Seeded: a failing case prints its seed and case index.
 */
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/core/agent/run-turn';
import type { StopReason } from '../../../src/core/model';
import { ScriptedEngine } from '../../../src/adapters/llm/scripted/scripted-engine';
import { createAgentFixture, step } from '../../../src/testing/agent-fixture';
import { pick, seededRandom } from '../../../src/testing/seeded-random';
import { FULL, reportReliability } from './reliability-report';

const CASES = FULL ? 10_000 : 1_000;
const SEED = 0x10c1;

const TOOLS = [
  'send_message',
  'core_memory_append',
  'core_memory_replace',
  'conversation_search',
  'conversation_search_date',
  'archival_memory_insert',
  'archival_memory_search',
];

type Rng = () => number;

const CONTROL = [
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\b',
  '\f',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
];

function randomString(r: Rng, max = 40): string {
  const n = Math.floor(r() * max);
  let s = '';
  for (let i = 0; i < n; i += 1) {
    const k = r();
    if (k < 0.1) s += pick(r, CONTROL);
    else if (k < 0.2) s += pick(r, ['"', '\\', '{', '}', '[', ']', ':', ',', '<script>', '记忆']);
    else s += String.fromCharCode(32 + Math.floor(r() * 90));
  }
  return s;
}

function randomValue(r: Rng, depth = 0): unknown {
  const k = Math.floor(r() * (depth > 3 ? 5 : 8));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return Math.floor(r() * 2 ** 40) * (r() < 0.5 ? -1 : 1);
    case 3:
      return r() * 1e300;
    case 4:
      return randomString(r);
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(r() * 4); i += 1)
        o[randomString(r, 8)] = randomValue(r, depth + 1);
      return o;
    }
  }
}

function validArgs(r: Rng, tool: string): Record<string, unknown> {
  switch (tool) {
    case 'send_message':
      return { message: randomString(r, 80) };
    case 'core_memory_append':
      return { label: pick(r, ['human', 'persona', 'nope', '']), content: randomString(r, 60) };
    case 'core_memory_replace':
      return {
        label: pick(r, ['human', 'persona']),
        old_content: pick(r, ['', 'a', randomString(r, 10)]),
        new_content: randomString(r, 30),
      };
    case 'conversation_search':
    case 'archival_memory_search':
      return {
        query: pick(r, ['(', '.*', '', '\\', randomString(r, 20)]),
        page: Math.floor(r() * 5) - 2,
      };
    case 'conversation_search_date':
      return {
        start: pick(r, ['2026-01-01', 'yesterday', '', '9999-99-99']),
        end: randomString(r, 12),
      };
    default:
      return { content: randomString(r, 200) };
  }
}

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Kinds of broken output; each maps a generator to a label for the counts. */
const KINDS: Record<string, (r: Rng) => string> = {
  empty: () => '',
  whitespace: (r) => pick(r, [' ', '\n\n', '\t \r\n', '\u00a0']),
  truncated: (r) => {
    const full = step(pick(r, TOOLS), validArgs(r, pick(r, TOOLS)), r() < 0.5);
    return full.slice(0, Math.floor(r() * full.length));
  },
  wrong_types: (r) =>
    JSON.stringify({
      thinking: randomValue(r),
      function: pick(r, [
        123,
        null,
        true,
        ['send_message'],
        { name: 'send_message' },
        'send_message',
      ]),
      arguments: pick(r, [
        'message',
        42,
        [],
        null,
        { message: 7 },
        { message: ['x'] },
        { message: null },
      ]),
      request_heartbeat: pick(r, ['yes', 1, null, 'true', true, false, {}]),
    }),
  unknown_tool: (r) =>
    step(
      pick(r, [
        'send',
        'SEND_MESSAGE',
        'rm -rf',
        '__proto__',
        'constructor',
        'toString',
        'core_memory_delete',
        randomString(r, 12),
      ]),
      { message: 'x' },
      r() < 0.5,
    ),
  huge_string: (r) =>
    step('send_message', { message: 'x'.repeat(20_000 + Math.floor(r() * 60_000)) }),
  huge_thinking: (r) =>
    JSON.stringify({
      thinking: 'y'.repeat(20_000 + Math.floor(r() * 60_000)),
      function: 'send_message',
      arguments: { message: 'ok' },
    }),
  deep_nesting: (r) =>
    pick(r, [
      nested(2000 + Math.floor(r() * 8000), 'array'),
      nested(2000 + Math.floor(r() * 3000), 'object'),
      `{"thinking":"x","function":"send_message","arguments":{"message":"hi","extra":${nested(3000, 'array')}}}`,
    ]),
  control_chars: (r) =>
    pick(r, [
      step('send_message', { message: CONTROL.join('') + randomString(r) }),
      `{"function":"send_message","arguments":{"message":"a\u0000b\u0001"}}`,
      `\u0000\u0000{"function":"send_message"}`,
      step('core_memory_append', { label: 'human', content: `\u0000${randomString(r)}\u202e` }),
    ]),
  prose_around: (r) =>
    pick(r, [
      `Sure! Here is my step:\n\`\`\`json\n${step('send_message', { message: 'Hi' })}\n\`\`\`\nHope that helps.`,
      `I think {${randomString(r)}} and then ${step('send_message', { message: 'x' })} done }`,
      `${step('send_message', { message: 'one' })}\n${step('send_message', { message: 'two' })}`,
      `<|eot_id|>${step('send_message', { message: 'x' })}<|start_header_id|>`,
      'Hello! How are you today?',
    ]),
  not_an_object: (r) =>
    pick(r, [
      'null',
      '42',
      '"send_message"',
      '[1,2,3]',
      'true',
      'NaN',
      'Infinity',
      '-0',
      '[]',
      '{}',
    ]),
  proto_keys: (r) =>
    pick(r, [
      '{"__proto__":{"function":"send_message"},"arguments":{"message":"x"}}',
      '{"function":"send_message","arguments":{"__proto__":{"message":"polluted"}}}',
      '{"function":"send_message","arguments":{"message":"x","constructor":{"prototype":{"a":1}}}}',
      `{"function":"core_memory_append","arguments":{"label":"__proto__","content":"${randomString(r, 10).replace(/["\\]/g, '')}"}}`,
    ]),
  random_bytes: (r) => randomString(r, 400),
  valid_call: (r) => {
    const tool = pick(r, TOOLS);
    return step(tool, validArgs(r, tool), r() < 0.6);
  },
  heartbeat_loop: (r) => step('conversation_search', { query: randomString(r, 5) }, true),
};
const KIND_NAMES = Object.keys(KINDS);

describe('X10 fuzzed model output', () => {
  it(`X10 X11 X12 X13: ${CASES} seeded cases — runTurn never throws, retries are bounded, the stop reason is recorded`, async () => {
    const perKind: Record<string, number> = {};
    const perStop: Record<string, number> = {};
    const failures: string[] = [];
    let lost = 0;
    // Cases are independent (own store, own seed) so they run in batches: the engine yields on
    // timers, and one at a time the run would mostly wait.
    const runCase = async (c: number): Promise<void> => {
      const random = seededRandom(SEED + c);
      const fx = await createAgentFixture({ autoRecall: false });
      const kinds: string[] = [];
      const engine = new ScriptedEngine({
        enforceSchema: false,
        tokenizer: fx.tokenizer,
        chunkChars: 2048,
        rule: (request) => {
          // The queue manager's summary call has no schema; fuzz it too, as free text.
          const kind = pick(random, KIND_NAMES);
          kinds.push(kind);
          perKind[kind] = (perKind[kind] ?? 0) + 1;
          const out = (KINDS[kind] as (r: Rng) => string)(random);
          return request.jsonSchema ? out : out.slice(0, 2000);
        },
      });
      const deps = { ...fx.deps, engine };
      const text = `case ${c}: ${random() < 0.2 ? 'x'.repeat(3000) : 'hello'}`;
      const where = () => `seed ${SEED + c} (case ${c}) kinds ${kinds.join(',')}`;
      let stopReason: StopReason | 'threw' = 'threw';
      try {
        const outcome = await runTurn(deps, fx.agent.id, { type: 'user_message', text });
        stopReason = outcome.stopReason;
        const turn = outcome.turnId ? fx.store.turns.get(outcome.turnId) : undefined;
        const steps = fx.store.steps.filter((s) => s.turnId === outcome.turnId);
        const calls = engine.requests.filter((q) => q.jsonSchema).length;
        const users = [...fx.store.messages.values()].filter(
          (m) => m.role === 'user' && m.text === text,
        );
        const replies = [...fx.store.messages.values()].filter(
          (m) => m.role === 'assistant' && m.toolCall?.name === 'send_message',
        );
        if (users.length !== 1) lost += Math.abs(1 - users.length);
        if (replies.length !== outcome.replies.length)
          lost += Math.abs(replies.length - outcome.replies.length);
        const problem = !turn
          ? 'no turn record'
          : turn.status !== 'done'
            ? `turn status ${turn.status}`
            : turn.stopReason !== outcome.stopReason
              ? `recorded ${turn.stopReason} but returned ${outcome.stopReason}`
              : outcome.steps > fx.agent.budgets.maxSteps || calls > fx.agent.budgets.maxSteps
                ? `unbounded: ${outcome.steps} steps, ${calls} calls`
                : steps.length !== outcome.steps
                  ? `${steps.length} step records for ${outcome.steps} steps`
                  : users.length !== 1
                    ? `${users.length} copies of the user message`
                    : null;
        if (problem) failures.push(`${where()}: ${problem}`);
      } catch (error) {
        failures.push(`${where()}: threw ${String(error)}`);
      }
      perStop[stopReason] = (perStop[stopReason] ?? 0) + 1;
    };
    const BATCH = 32;
    for (let c = 0; c < CASES; c += BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(BATCH, CASES - c) }, (_, i) => runCase(c + i)),
      );
    }
    reportReliability({
      name: 'fuzz-model-output',
      rule: 'X10-X13',
      trials: CASES,
      failures: failures.length,
      lost,
      details: {
        seed: SEED,
        ...Object.fromEntries(Object.entries(perStop).map(([k, v]) => [`stop.${k}`, v])),
        ...Object.fromEntries(Object.entries(perKind).map(([k, v]) => [`kind.${k}`, v])),
      },
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect(lost).toBe(0);
    // Every kind was generated, and the fuzz reached more than one way of ending a turn.
    for (const kind of KIND_NAMES) expect(perKind[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(Object.keys(perStop).length).toBeGreaterThan(2);
  }, 600_000);
});
