import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from '../../adapters/tokenizer/llama3-tokenizer';
import { createEstimateTokenizer } from '../tokens/estimate-tokenizer';
import type { StepPromptInput } from './build-step-prompt';
import { buildStepPrompt } from './build-step-prompt';
import { DEFAULT_PROMPT_LENGTHS } from './prompts';

const base: StepPromptInput = {
  mode: 'writer',
  lengths: DEFAULT_PROMPT_LENGTHS,
  genre: '武侠',
  topic: '一位老剑客的最后一战',
  outline: '第一幕：归隐。第二幕：复出。',
  shortTermMemory: '老剑客住在山中。他的徒弟下山了。',
  lastSection: '开头。' + '雨一直下，山路泥泞。'.repeat(60) + '他推开了门。',
  plan: '老剑客收到一封信，决定下山。',
  opening: false,
  passages: [
    { id: 'p1', text: '信是他的旧友写的。'.repeat(30) },
    { id: 'p2', text: '徒弟在城里开了一家酒馆。'.repeat(30) },
  ],
};

describe('buildStepPrompt', () => {
  it('G6: everything fits in a roomy budget and nothing is trimmed', () => {
    const prompt = buildStepPrompt(base, createEstimateTokenizer(), 10_000);
    expect(prompt.trimmed).toEqual([]);
    expect(prompt.passageIds).toEqual(['p1', 'p2']);
    expect(prompt.messages[1]!.content).toContain('Plan for the next section:\n老剑客收到一封信');
  });

  it('G6: under pressure passages go first, then the outline, and the last section keeps its end', () => {
    for (const tokenizer of [createEstimateTokenizer(), createLlama3Tokenizer()]) {
      const roomy = buildStepPrompt(base, tokenizer, 100_000);
      const noPassages = buildStepPrompt({ ...base, passages: [] }, tokenizer, 100_000);
      // Room for everything except the passages, and a little more.
      const budget = noPassages.tokens + 40;
      const tight = buildStepPrompt(base, tokenizer, budget);
      expect(tight.tokens).toBeLessThanOrEqual(budget);
      expect(tight.tokens).toBeLessThan(roomy.tokens);
      expect(tight.trimmed).toEqual(['passages']);
      expect(tight.messages[1]!.content).toContain('他推开了门。');

      const tighter = buildStepPrompt(base, tokenizer, noPassages.tokens - 60);
      expect(tighter.passageIds).toEqual([]);
      expect(tighter.trimmed).toContain('last_section');
      const user = tighter.messages[1]!.content;
      expect(user).toContain('他推开了门。');
      expect(user).not.toContain('开头。');
      expect(user).toContain('Short-term memory:\n老剑客住在山中。他的徒弟下山了。');
      const counted = tighter.messages.reduce(
        (s, m) => s + tokenizer.countMessage(m.role, m.content),
        0,
      );
      expect(counted).toBe(tighter.tokens);
      expect(counted).toBeLessThanOrEqual(noPassages.tokens - 60);
    }
  });

  it('G6: when the plan and instructions alone do not fit, it fails with context_window_exceeded', () => {
    expect(() => buildStepPrompt(base, createEstimateTokenizer(), 100)).toThrowError(
      expect.objectContaining({ code: 'context_window_exceeded' }),
    );
  });
});
