import { describe, expect, it } from 'vitest';
import { createLlama3ChatTokens } from '../../adapters/tokenizer/llama3-chat-tokens';
import { createLlama3Tokenizer } from '../../adapters/tokenizer/llama3-tokenizer';
import { createAgentRecord } from '../agent/create-agent-record';
import { requestCost } from '../../eval/turn-cost/request-cost';
import type { Message } from '../model';
import { createToolRegistry } from '../tools/tool-registry';
import { createMemgptStrategy } from '../strategies/memgpt';
import { planContext, type PlanInput } from './plan-context';
import { promptReuse } from './prompt-reuse';

function message(seq: number, role: Message['role'], text: string): Message {
  return {
    id: `m${seq}`,
    agentId: 'a1',
    seq,
    role,
    text,
    at: seq * 1000,
    inContext: true,
    tokens: 0,
  };
}

function input(history: Message[], state?: unknown): PlanInput {
  const { agent } = createAgentRecord({ id: 'a1', name: 'Loci', now: 0, window: 4096 });
  return {
    agent,
    blocks: [],
    history,
    candidates: [
      { id: 'x', text: '[2026-01-01 Ann] "I love Miso"', tokens: 0, origin: 'recall' },
      { id: 'y', text: '[2026-01-02 Ann] "Miso saw the vet"', tokens: 0, origin: 'recall' },
    ],
    tools: createToolRegistry().specs([]),
    strategy: createMemgptStrategy(),
    strategyState: state,
    tokenizer: createLlama3Tokenizer(),
    window: 4096,
    query: history[history.length - 1]?.text ?? '',
    now: 10_000,
  };
}

describe('promptReuse', () => {
  it('C18: the panel line counts what the meter counts for web-llm — the new message and the reply header new, the rest kept', async () => {
    const first = await planContext(input([message(1, 'user', 'What is my cat called?')]));
    if (!first.ok) throw new Error(first.error.type);
    const raw =
      '{"thinking":"Name.","function":"send_message","arguments":{"message":"Miso."},"request_heartbeat":false}';
    const answer = message(2, 'assistant', 'Miso.');
    answer.toolCall = { name: 'send_message', arguments: { message: 'Miso.' } };
    answer.raw = raw;
    const history = [
      message(1, 'user', 'What is my cat called?'),
      answer,
      message(3, 'user', 'And the vet?'),
    ];
    const second = await planContext(input(history, first.value.strategyState));
    if (!second.ok) throw new Error(second.error.type);

    // A first request: everything is new.
    const start = promptReuse(null, first.value);
    expect(start).toEqual({ fresh: first.value.total - first.value.sections.reserve, kept: 0 });

    const reuse = promptReuse(first.value, second.value);
    const tokens = createLlama3ChatTokens();
    const before = requestCost(tokens, null, first.value.prompt);
    const meter = requestCost(
      tokens,
      { messages: first.value.prompt, output: raw, finishReason: 'stop', tokens: before.tokens },
      second.value.prompt,
    ).cost;
    expect(meter.webllmReused).toBe(true);
    // The same message is new for both: the meter's prefill is that message and the reply header;
    // the planner counts the header as an empty assistant turn (one token more, on the safe side).
    const last = second.value.prompt[second.value.prompt.length - 1]!;
    expect(second.value.turnTokens?.at(-1)).toBe(tokens.message(last).length);
    const header = createLlama3Tokenizer().countMessage('assistant', '');
    expect(reuse.fresh).toBe(meter.prefillWebllm - tokens.generationHeader().length + header);
    expect(reuse.fresh + reuse.kept).toBe(second.value.total - second.value.sections.reserve);
    expect(reuse.fresh).toBeLessThan(reuse.kept);

    // A request that rewrote an earlier turn (a flush, a core edit): nothing is kept.
    const rewritten = {
      ...second.value,
      prompt: [{ role: 'system' as const, content: 'other' }, ...second.value.prompt.slice(1)],
    };
    expect(promptReuse(first.value, rewritten).kept).toBe(0);
  });

  it('C18: an engine with a prefix cache keeps the messages its held conversation shares with the request; one without keeps nothing unless the conversation continues', async () => {
    const first = await planContext(input([message(1, 'user', 'What is my cat called?')]));
    if (!first.ok) throw new Error(first.error.type);
    const answer = message(2, 'assistant', 'Miso.');
    answer.toolCall = { name: 'send_message', arguments: { message: 'Miso.' } };
    answer.raw =
      '{"thinking":"Name.","function":"send_message","arguments":{"message":"Miso."},"request_heartbeat":false}';
    const next = [message(1, 'user', 'What is my cat called?'), answer, message(3, 'user', 'Vet?')];
    const second = await planContext(input(next, first.value.strategyState));
    if (!second.ok) throw new Error(second.error.type);
    const turns = second.value.turnTokens!;
    const prompt = second.value.total - second.value.sections.reserve;

    // Continued message for message: both ways keep everything but the new message.
    const continued = promptReuse(first.value, second.value, { prefixCache: true });
    expect(continued).toEqual(promptReuse(first.value, second.value, { prefixCache: false }));
    expect(continued.kept).toBe(turns.slice(0, -1).reduce((a, b) => a + b, 0));

    // The first user message rewritten (an edit): a prefix cache still holds the system message;
    // a continued-conversation engine reads the whole request again.
    const edited = {
      ...second.value,
      prompt: second.value.prompt.map((turn, i) =>
        i === 1 ? { ...turn, content: `${turn.content} (edited)` } : turn,
      ),
    };
    expect(promptReuse(first.value, edited, { prefixCache: true })).toEqual({
      fresh: prompt - turns[0]!,
      kept: turns[0],
    });
    expect(promptReuse(first.value, edited, { prefixCache: false })).toEqual({
      fresh: prompt,
      kept: 0,
    });
  });
});
