/**
 * The prefix-stable layout (C16, ADR 0100) on the live loop: each request starts with the
 * previous request and the model's output exactly as generated, so web-llm 0.2.86 keeps its KV
 * cache between the steps of a turn, and a longest-common-prefix engine between turns reads
 * only this turn's memories turn and what followed the previous one.
 */
import { describe, expect, it } from 'vitest';
import {
  afterTool,
  createAgentFixture,
  lastUserText,
  reply,
  step,
} from '../../testing/agent-fixture';
import { continuesConversation, type EngineExchange } from '../context/prefix-reuse';
import type { ChatTurn } from '../ports/llm-engine';
import { MEMORIES_HEADER, MESSAGE_AFTER_MEMORIES } from '../prompts/render-context';
import { runTurn } from './run-turn';

describe('a step’s request is the previous request plus what is new', () => {
  it('C16 C17: steps extend the previous request; the memories sit in front of the new message', async () => {
    const fx = await createAgentFixture({
      rule: (request) => {
        if (/tea/i.test(lastUserText(request)) && !afterTool(request)) {
          return step(
            'archival_memory_insert',
            { content: 'Ana drinks green tea every morning.' },
            true,
            'Save the habit.',
          );
        }
        return reply(afterTool(request) ? 'Saved: green tea.' : 'You drink green tea.');
      },
    });
    const exchanges: EngineExchange[] = [];
    const complete = fx.engine.complete.bind(fx.engine);
    fx.engine.complete = async (request) => {
      const result = await complete(request);
      exchanges.push({ messages: request.messages, output: result.text, finishReason: 'stop' });
      return result;
    };
    const run = (text: string) => runTurn(fx.deps, fx.agent.id, { type: 'user_message', text });
    await run('I drink green tea every morning.');
    await run('What do I drink every morning?');
    expect(exchanges).toHaveLength(3);
    const [first, second, third] = exchanges as [EngineExchange, EngineExchange, EngineExchange];

    // Within a turn: the previous request, the step as generated, then the tool result.
    expect(second.messages.slice(0, -1)).toEqual([
      ...first.messages,
      { role: 'assistant', content: first.output },
    ]);
    expect(continuesConversation(first, second.messages)).toBe(true);

    // Next turn: automatic recall found the saved passage; it is merged in front of the question
    // (C17), so the turn adds one message.
    const turns = third.messages;
    const question = turns[turns.length - 1]?.content ?? '';
    expect(question.startsWith(MEMORIES_HEADER)).toBe(true);
    expect(question).toContain('green tea every morning');
    expect(question.endsWith(`\n${MESSAGE_AFTER_MEMORIES}\nWhat do I drink every morning?`)).toBe(
      true,
    );
    // Everything before it is the previous request and its reply as generated: a cached prefix.
    const held: ChatTurn[] = [...second.messages, { role: 'assistant', content: second.output }];
    expect(turns.slice(0, -1)).toEqual(held);
    expect(continuesConversation(second, turns)).toBe(true);
  });
});
