import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseEvalArgs, runMemoryEval } from '../eval-memory';

const tiny = fileURLToPath(new URL('../../tests/fixtures/eval/tiny-locomo.json', import.meta.url));

describe('eval:memory on a tiny LoCoMo-format file (fixture embedder, real adapters)', () => {
  it('V11 V31: the JSON has exactly the issue keys, every mode, strategy and budget, on the live path', async () => {
    const args = parseEvalArgs(['--data', tiny, '--budgets', '300,900', '--k', '1,5', '--quiet']);
    const { result, table } = await runMemoryEval(args);
    expect(Object.keys(result)).toEqual([
      'path',
      'dataset',
      'tokenizer',
      'embedder',
      'conversations',
      'questions',
      'retrieval',
      'context',
      'by_category',
      'cost',
    ]);
    expect(result.path).toBe('live');
    expect(result.dataset).toBe('tiny-locomo.json');
    expect(result.embedder).toBe('loci-fixture-embed');
    expect(result.tokenizer).toMatch(/llama3/);
    expect(result.conversations).toBe(1);
    // Five questions: the adversarial one (category 5) is not scored (V4).
    expect(result.questions).toBe(5);
    expect(Object.keys(result.retrieval)).toEqual(['lexical', 'vector', 'hybrid']);
    expect(Object.keys(result.retrieval.lexical!)).toEqual([
      'recall@1',
      'recall@5',
      'all_recall@1',
      'all_recall@5',
    ]);
    expect(Object.keys(result.context)).toEqual(['memgpt', 'forgetting', 'recency', 'window']);
    // V38: what recall costs sits beside what it finds, for every strategy and budget.
    expect(Object.keys(result.context.window!)).toEqual([
      '300',
      '900',
      '300_all',
      '900_all',
      '300_memory_tokens_mean',
      '300_memory_tokens_p95',
      '300_memory_lines_mean',
      '300_summary_evidence_evicted',
      '900_memory_tokens_mean',
      '900_memory_tokens_p95',
      '900_memory_lines_mean',
      '900_summary_evidence_evicted',
    ]);
    // V39: the window strategy evicts nothing, so no evidence is out of the queue.
    expect(result.context.window!['300_summary_evidence_evicted']).toBe(0);
    expect(table).toMatch(/\| evicted evidence still in the summary/);
    // The window strategy never recalls: it costs no memory tokens.
    expect(result.context.window!['900_memory_tokens_mean']).toBe(0);
    expect(result.context.memgpt!['900_memory_tokens_p95']).toBeGreaterThanOrEqual(
      result.context.memgpt!['900_memory_tokens_mean']!,
    );
    expect(table).toMatch(/\| recalled memory per question/);
    expect(Object.keys(result.by_category).sort()).toEqual(['multi_hop', 'single_hop', 'temporal']);
    expect(table).toMatch(/\| hybrid \|/);
    // V31: the cost of every strategy at every budget, from the same replay.
    expect(Object.keys(result.cost!)).toEqual(['memgpt', 'forgetting', 'recency', 'window']);
    const cost = result.cost!.memgpt!['300']!;
    expect(Object.keys(cost)).toEqual([
      'turns',
      'steps_per_turn',
      'full_prompt_mean',
      'new_tokens_mean',
      'prefill_webllm_mean',
      'prefill_lcp_mean',
      'new_tokens_p95',
      'prefill_webllm_p95',
      'prefill_lcp_p95',
      'webllm_resets',
      'webllm_held_mean',
      'flushes',
      'prompt_limit',
      'webllm_ratio_floor',
      'pressure_warnings_per_turn',
    ]);
    expect(cost.pressure_warnings_per_turn).toBeGreaterThanOrEqual(0);
    expect(cost.pressure_warnings_per_turn).toBeLessThanOrEqual(1);
    // V34: every request web-llm prefilled in full is counted once, by why; the first is 'first'.
    expect(cost.webllm_resets.first).toBe(1);
    expect(table).toMatch(/\| web-llm full prefills \(live\) .*\| ratio: floor \/ measured/);
    // V37: no layout reads less than the floor; the replay's own ratio is at or above it (the
    // floor is rounded to two decimals).
    expect(cost.prompt_limit).toBeGreaterThan(cost.webllm_held_mean);
    expect(cost.webllm_ratio_floor).not.toBeNull();
    expect(cost.prefill_webllm_mean / cost.new_tokens_mean).toBeGreaterThanOrEqual(
      cost.webllm_ratio_floor! - 0.01,
    );
    // The fixture's first speaker speaks four times: four turns of the loop, one step each.
    expect(cost.turns).toBe(4);
    expect(cost.steps_per_turn).toBe(1);
    expect(cost.prefill_lcp_mean).toBeLessThanOrEqual(cost.full_prompt_mean);
    expect(cost.new_tokens_mean).toBeLessThan(cost.full_prompt_mean);
    expect(table).toMatch(/\| cost per turn \(live\)/);
  });

  it('V5/V7: the 8-turn conversation is found lexically and fits whole at 900 tokens', async () => {
    const { result } = await runMemoryEval(
      parseEvalArgs(['--data', tiny, '--budgets', '900', '--k', '5', '--quiet']),
    );
    // Every question names a distinctive word of its evidence turn (kitten, marathon, sofa, …).
    expect(result.retrieval.lexical!['recall@5']).toBe(1);
    expect(result.context.window!['900']).toBe(1);
    expect(result.context.window!['900_all']).toBe(1);
  });

  it('V33: --strategies replays only the named strategies; an unknown name is refused', async () => {
    const { result } = await runMemoryEval(
      parseEvalArgs([
        '--data',
        tiny,
        '--budgets',
        '900',
        '--k',
        '5',
        '--strategies',
        'window',
        '--quiet',
      ]),
    );
    expect(Object.keys(result.context)).toEqual(['window']);
    expect(Object.keys(result.cost ?? {})).toEqual(['window']);
    expect(result.retrieval.lexical!['recall@5']).toBe(1);
    expect(() => parseEvalArgs(['--data', tiny, '--strategies', 'memgpt,lru'])).toThrow(/not: lru/);
  });

  it('V36: --engine names the engine kind the replay stands for; an unknown one is refused', () => {
    expect(parseEvalArgs(['--data', tiny]).engine).toBe('webllm');
    expect(parseEvalArgs(['--data', tiny, '--engine', 'prefix']).engine).toBe('prefix');
    expect(() => parseEvalArgs(['--data', tiny, '--engine', 'mlx'])).toThrow(/webllm or prefix/);
  });

  it('V11: bad arguments are refused with the usage', () => {
    expect(() => parseEvalArgs([])).toThrow(/--data/);
    expect(() => parseEvalArgs(['--data', tiny, '--k', 'ten'])).toThrow(/positive integers/);
    expect(() => parseEvalArgs(['--data', tiny, '--bogus'])).toThrow(/Usage/);
    // V32: there is one path; the side path's option is gone.
    expect(() => parseEvalArgs(['--data', tiny, '--path', 'side'])).toThrow(
      /Unknown option --path/,
    );
  });
});
