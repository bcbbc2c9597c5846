import { describe, expect, it } from 'vitest';
import { createLlama3ChatTokens } from '../../adapters/tokenizer/llama3-chat-tokens';
import { AppError } from '../../core/errors';
import { createAgentFixture, reply, step } from '../../testing/agent-fixture';
import { runTurn } from '../../core/agent/run-turn';
import { MeteredEngine } from './metered-engine';
import { percentile, TurnCostMeter } from './turn-cost-meter';

const tokens = createLlama3ChatTokens();

describe('the turn-cost meter', () => {
  it('V26: a turn costs the sum of its requests; means and p95 are over turns', () => {
    const meter = new TurnCostMeter(tokens);
    const sys = { role: 'system' as const, content: 'You are Loci.' };
    const ask = (text: string) => ({ role: 'user' as const, content: text });
    meter.beginTurn('one');
    const a = meter.record({
      kind: 'step',
      messages: [sys, ask('Hi')],
      output: 'x',
      finishReason: 'stop',
    });
    meter.beginTurn('two');
    const b = meter.record({
      kind: 'summary',
      messages: [{ role: 'system', content: 'Summarize.' }, ask('Hi')],
      output: '',
      finishReason: 'abort',
    });
    const c = meter.record({
      kind: 'step',
      messages: [sys, ask('Hi'), ask('More')],
      output: 'y',
      finishReason: 'stop',
    });
    expect([a.step, b.step, c.step]).toEqual([1, 0, 1]);
    const summary = meter.summary();
    expect(summary.turns).toBe(2);
    expect(summary.steps_per_turn).toBe(1);
    const turnTwo = b.fullPrompt + c.fullPrompt;
    expect(summary.full_prompt_mean).toBeCloseTo((a.fullPrompt + turnTwo) / 2, 1);
    expect(summary.prefill_webllm_p95).toBe(
      Math.max(a.prefillWebllm, b.prefillWebllm + c.prefillWebllm),
    );
    // V34: each full prefill is counted by why; the step after a summary request resets too.
    expect([a.resetCause, b.resetCause, c.resetCause]).toEqual([
      'first',
      'summary_request',
      'summary_request',
    ]);
    expect(summary.webllm_resets).toEqual({ first: 1, summary_request: 2 });
    expect(Object.keys(meter.byStep())).toEqual(['1', 'summary']);
    expect(meter.byStep()['1']?.requests).toBe(2);
  });

  it('V26: nearest-rank percentile', () => {
    expect(percentile([], 0.95)).toBe(0);
    expect(percentile([5], 0.95)).toBe(5);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.95,
      ),
    ).toBe(95);
  });

  it('V26: MeteredEngine records every request of a real turn, and a stopped reply as aborted', async () => {
    const fx = await createAgentFixture({
      outputs: [
        step('conversation_search', { query: 'cake' }, true),
        reply('Lemon cake!'),
        new AppError('cancelled', 'stop'),
      ],
    });
    const meter = new TurnCostMeter(tokens);
    const engine = new MeteredEngine(fx.engine, meter);
    const deps = { ...fx.deps, engine };
    meter.beginTurn();
    await runTurn(deps, fx.agent.id, { type: 'user_message', text: 'What cake?' });
    meter.beginTurn();
    const stopped = await runTurn(deps, fx.agent.id, { type: 'user_message', text: 'And?' });
    expect(stopped.stopReason).toBe('cancelled');
    expect(meter.turns.map((t) => t.requests.map((r) => `${r.kind}${r.step}`))).toEqual([
      ['step1', 'step2'],
      ['step1'],
    ]);
    // The loop shows its steps as generated (C16), so web-llm continues from the first step and
    // reads only the tool result and the reply header.
    const [first, second] = meter.turns[0]!.requests;
    expect(second!.webllmReused).toBe(true);
    expect(second!.prefillWebllm).toBeLessThan(second!.fullPrompt / 2);
    expect(second!.prefillWebllm).toBeGreaterThanOrEqual(second!.newTokens);
    expect(second!.newTokens).toBeLessThan(second!.fullPrompt / 2);
    expect(first!.newTokens).toBe(first!.fullPrompt);
  });
});
