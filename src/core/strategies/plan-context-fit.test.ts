import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from '../../adapters/tokenizer/llama3-tokenizer';
import { planContext } from '../context/plan-context';
import type { ContextStrategy, StrategyOutput } from '../context/strategy';
import type { MessageRole } from '../model';
import { createForgettingStrategy } from './forgetting/forgetting-strategy';
import { createRecencyStrategy } from './recency';
import { conversation, prng, testAgent } from './testing/fixtures';
import { createWindowStrategy } from './window';

const WORDS = ['Anna', 'Paris', 'bread', 'the', 'moved', 'cook', '你', '吃', '了', '吗', '雨'];

describe('strategies inside planContext', () => {
  it('F13: the planner recount agrees with the strategy, so nothing is dropped after selection', async () => {
    const tokenizer = createLlama3Tokenizer();
    const rand = prng(11);
    const strategies: Array<() => ContextStrategy> = [
      () => createWindowStrategy(),
      () => createRecencyStrategy(),
      () => createForgettingStrategy(),
    ];
    let withMemories = 0;
    let truncated = 0;
    for (let c = 0; c < 12; c += 1) {
      const lines: Array<[MessageRole, string]> = [];
      const n = 4 + Math.floor(rand() * 30);
      for (let i = 0; i < n; i += 1) {
        const words = Array.from(
          { length: 1 + Math.floor(rand() * 30) },
          () => WORDS[Math.floor(rand() * WORDS.length)]!,
        );
        lines.push([i % 2 === 0 ? 'user' : 'assistant', words.join(' ')]);
      }
      if (lines[lines.length - 1]![0] !== 'user') lines.push(['user', 'and now?']);
      const history = conversation(lines);
      for (const make of strategies) {
        const strategy = make();
        let state: unknown;
        let selected: StrategyOutput | undefined;
        const captured: ContextStrategy = {
          name: strategy.name,
          select: async (i) => (selected = await strategy.select(i)),
        };
        for (let end = 1; end <= history.length; end += 2) {
          const window = 700 + Math.floor(rand() * 600);
          const agent = testAgent({ budgets: { ...testAgent().budgets, replyReserve: 200 } });
          const part = history.slice(0, end);
          const planned = await planContext({
            agent,
            blocks: [],
            history: part,
            tools: [],
            strategy: captured,
            strategyState: state,
            tokenizer,
            window,
            query: part[part.length - 1]!.text,
            now: 0,
          });
          expect(planned.ok, `${strategy.name} case ${c}`).toBe(true);
          if (!planned.ok || selected === undefined) return;
          const plan = planned.value;
          expect(plan.total).toBeLessThanOrEqual(window);
          // The planner recounts what will be sent and trims if a strategy under-counted; it
          // must not have had to.
          expect(plan.messageIds).toEqual(selected.messages.map((m) => m.id));
          expect(plan.memories.map((m) => m.id)).toEqual(selected.memories.map((m) => m.id));
          if (selected.memories.length > 0) withMemories += 1;
          if (selected.messages.length < part.length) truncated += 1;
          state = plan.strategyState;
        }
      }
    }
    // The fuzz must reach the interesting cases: memories in the prompt, history cut.
    expect(withMemories).toBeGreaterThan(10);
    expect(truncated).toBeGreaterThan(10);
  });
});
