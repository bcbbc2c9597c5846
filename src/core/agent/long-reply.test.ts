import { describe, expect, it } from 'vitest';
import { createAgentFixture, reply } from '../../testing/agent-fixture';
import { CONTINUE_TEXT } from '../prompts/event-copy';
import type { CompletionRequest, CompletionResult } from '../ports/llm-engine';
import { runTurn } from './run-turn';
import { replyMaxChars } from './step-schema';
import { STEP_MAX_TOKENS_CAP, STEP_SAFETY_TOKENS, stepMaxTokens } from './step-max-tokens';
import type { TurnEvent } from './turn-events';

const plan = (window: number, prompt: number, reserve: number) => ({
  window,
  total: prompt + reserve,
  sections: {
    system: prompt,
    tools: 0,
    core: 0,
    summary: 0,
    memories: 0,
    messages: 0,
    reserve,
  },
});

/** An engine call that stops at `cutAt` characters of `output`, as `max_tokens` would. */
function cutAfter(output: string, cutAt: number) {
  return async (request: CompletionRequest): Promise<CompletionResult> => {
    const text = output.slice(0, cutAt);
    for (let i = 0; i < text.length; i += 7) {
      await Promise.resolve();
      request.onDelta?.(text.slice(i, i + 7));
    }
    return { text, finishReason: 'length', promptTokens: 0, completionTokens: 0 };
  };
}

describe('long replies (A40, A41)', () => {
  it('A40: a step may generate the free window less a margin, in steps of 256, between one and four reserves', () => {
    expect(stepMaxTokens(plan(4096, 2309, 512), 512)).toBe(1536);
    expect(4096 - 2309 - STEP_SAFETY_TOKENS).toBeGreaterThanOrEqual(1536);
    expect(stepMaxTokens(plan(4096, 1309, 512), 512)).toBe(4 * 512);
    expect(stepMaxTokens(plan(4096, 3584, 512), 512)).toBe(512);
    expect(stepMaxTokens(plan(32_768, 2000, 1024), 1024)).toBe(STEP_MAX_TOKENS_CAP);
    expect(stepMaxTokens(plan(32_768, 2000, 300), 300)).toBe(1200);
  });

  it('A40: the engine is asked for the free window, and the prompt plus it fit the window', async () => {
    const fx = await createAgentFixture({ outputs: [reply('Hi!')] });
    const events: TurnEvent[] = [];
    await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Hello' },
      { onEvent: (e) => events.push(e) },
    );
    const planned = events.find((e) => e.type === 'context.planned');
    if (planned?.type !== 'context.planned') throw new Error('no plan');
    const request = fx.engine.requests[0];
    expect(request?.maxTokens).toBeGreaterThan(fx.agent.budgets.replyReserve);
    const prompt = planned.plan.total - planned.plan.sections.reserve;
    expect(prompt + (request?.maxTokens ?? 0)).toBeLessThanOrEqual(4096 - STEP_SAFETY_TOKENS);
  });

  it('A40: a reply cut at the limit is kept as the reply, marked cut, and ends the turn', async () => {
    const fx = await createAgentFixture();
    const long = reply('Dear friends, '.repeat(200));
    fx.engine.complete = cutAfter(long, 900);
    const outcome = await runTurn(fx.deps, fx.agent.id, {
      type: 'user_message',
      text: 'Write my speech',
    });
    expect(outcome.stopReason).toBe('end_turn');
    expect(outcome.steps).toBe(1);
    const replies = [...fx.store.messages.values()].filter((m) => m.role === 'assistant');
    expect(replies).toHaveLength(1);
    expect(replies[0]?.cut).toBe(true);
    expect(replies[0]?.text.startsWith('Dear friends, Dear friends,')).toBe(true);
    expect(replies[0]?.text.length).toBeGreaterThan(800);
    expect(outcome.replies).toEqual([replies[0]?.text]);
    // The prompt shows the cut reply as a well-formed call, never the half JSON.
    expect(replies[0]?.raw).toBeUndefined();
  });

  it('A40: a reply the grammar closed at its length bound is marked cut too', async () => {
    const fx = await createAgentFixture();
    fx.engine.complete = async (request) => {
      const bound = replyMaxChars(request.maxTokens);
      const text = reply('x'.repeat(bound));
      request.onDelta?.(text);
      return { text, finishReason: 'stop', promptTokens: 0, completionTokens: 0 };
    };
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Go on' });
    const answer = [...fx.store.messages.values()].find((m) => m.role === 'assistant');
    expect(answer?.cut).toBe(true);
    // Well-formed JSON: the prompt shows it as generated (ADR 0100).
    expect(answer?.raw).toBeDefined();
  });

  it('A41: Continue asks the model for the rest in the same conversation; the reply goes on from the cut one', async () => {
    const fx = await createAgentFixture();
    const speech = reply('First half and '.repeat(100));
    // Cut just after a space, between two words.
    fx.engine.complete = cutAfter(speech, speech.indexOf('First', 600));
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Write it' });
    const cut = [...fx.store.messages.values()].find((m) => m.cut);
    if (!cut) throw new Error('no cut reply');
    const engine = Object.getPrototypeOf(fx.engine) as { complete: typeof fx.engine.complete };
    fx.engine.complete = engine.complete.bind(fx.engine);
    fx.engine.push(reply(' the rest. '));
    const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'continue', messageId: cut.id });
    expect(outcome.stopReason).toBe('end_turn');
    const all = [...fx.store.messages.values()];
    const event = all.find((m) => m.speaker === 'continue');
    expect(event?.text).toBe(CONTINUE_TEXT);
    const rest = all.find((m) => m.continues === cut.id);
    // The seam keeps its spaces: the cut reply's end and the continuation's start (A41).
    expect(cut.text.endsWith(' ')).toBe(true);
    expect(rest?.text).toBe(' the rest.');
    expect(rest?.cut).toBeUndefined();
    const last = fx.engine.requests.at(-1)?.messages.at(-1)?.content ?? '';
    expect(last).toContain('cut off');
  });

  it('A41: Continue on a reply that was not cut is refused', async () => {
    const fx = await createAgentFixture({ outputs: [reply('Short.')] });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    const whole = [...fx.store.messages.values()].find((m) => m.role === 'assistant');
    const outcome = await runTurn(fx.deps, fx.agent.id, {
      type: 'continue',
      messageId: whole?.id ?? '',
    });
    expect(outcome.stopReason).toBe('error');
    expect(outcome.error?.code).toBe('not_found');
  });
});
