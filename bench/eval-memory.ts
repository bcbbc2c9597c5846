/**
 * `npm run eval:memory -- --data <file> [--out <result.json>] [--budgets 1500,3000]
 * [--k 5,10,25] [--embedder <local model dir> | --no-embedder]
 * [--strategies memgpt,forgetting] [--engine webllm|prefix]`
 *
 * Scores Loci's memory on a LoCoMo-format file without an LLM (docs/spec/eval.md): evidence
 * recall of `conversation_search` in each search mode, whether each context strategy's prompt
 * holds the evidence, and what each turn costs an engine. The conversation runs through the
 * app's turn loop with a scripted engine (V28), as the in-app memory check does. Prints Markdown
 * tables; writes the JSON with `--out`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ConversationSummary, EvalPlan } from '../src/eval/eval-plan';
import { EVAL_STRATEGIES, costKey, evaluateLive, type CostRecord } from '../src/eval/evaluate-live';
import { summarizeCost, webllmRatioFloor } from '../src/eval/turn-cost/turn-cost-meter';
import type { StrategyName } from '../src/core/model';
import type { Tokenizer } from '../src/core/ports/tokenizer';
import { parseLocomo } from '../src/eval/parse-locomo';
import { RecallTally } from '../src/eval/recall-tally';
import type { Embedder } from '../src/core/ports/embedder';
import type { SearchMode } from '../src/core/ports/memory-search';
import type { EpochMs } from '../src/core/units';
import {
  buildEvalResult,
  evalMarkdown,
  memoryCostFigures,
  summaryEvidenceFigures,
  type CostFigures,
  type EvalResult,
} from './eval/eval-report';
import {
  FIXTURE_MODEL_DIR,
  createLlama3Tokenizer,
  liveReplayDeps,
  loadLocalEmbedder,
} from './eval/eval-runtime';

export interface EvalArgs {
  data: string;
  out?: string;
  budgets: number[];
  ks: number[];
  embedder: string | null;
  quiet: boolean;
  /** Context strategies to replay (default: all of them); fewer is faster. */
  strategies: readonly StrategyName[];
  /**
   * The kind of engine the replay's scripted engine stands for (V36): `webllm` (default) or
   * `prefix`, an engine that keeps a common token prefix (wllama, a model server), for which the
   * queue manager shapes its summary request differently (C26).
   */
  engine: 'webllm' | 'prefix';
}

function numbers(value: string | undefined, flag: string): number[] {
  const list = (value ?? '').split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new Error(`${flag} takes positive integers separated by commas, e.g. ${flag} 5,10`);
  }
  return list;
}

/** Parses the command line (without `node script`). */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const args: EvalArgs = {
    data: '',
    budgets: [1500, 3000],
    ks: [5, 10, 25],
    embedder: FIXTURE_MODEL_DIR,
    quiet: false,
    strategies: EVAL_STRATEGIES,
    engine: 'webllm',
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    switch (flag) {
      case '--data':
        args.data = value ?? '';
        i += 1;
        break;
      case '--out':
        args.out = value;
        i += 1;
        break;
      case '--budgets':
        args.budgets = numbers(value, flag);
        i += 1;
        break;
      case '--k':
        args.ks = numbers(value, flag).sort((a, b) => a - b);
        i += 1;
        break;
      case '--embedder':
        args.embedder = value ?? null;
        i += 1;
        break;
      case '--no-embedder':
        args.embedder = null;
        break;
      case '--strategies': {
        const names = (value ?? '').split(',').map((n) => n.trim());
        const unknown = names.filter((n) => !EVAL_STRATEGIES.includes(n as StrategyName));
        if (names.length === 0 || unknown.length > 0)
          throw new Error(
            `--strategies takes names from ${EVAL_STRATEGIES.join(', ')}, separated by commas (not: ${unknown.join(', ')}).`,
          );
        args.strategies = names as StrategyName[];
        i += 1;
        break;
      }
      case '--engine':
        if (value !== 'webllm' && value !== 'prefix')
          throw new Error('--engine takes webllm or prefix.');
        args.engine = value;
        i += 1;
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '--':
        break;
      default:
        throw new Error(
          `Unknown option ${flag}. Usage: eval:memory -- --data <file> [--out <json>] [--budgets 1500,3000] [--k 5,10,25] [--embedder <dir> | --no-embedder] [--strategies memgpt,...] [--engine webllm|prefix]`,
        );
    }
  }
  if (args.data === '') throw new Error('--data <LoCoMo-format file> is required.');
  return args;
}

interface EvalContext {
  args: EvalArgs;
  dataset: ReturnType<typeof parseLocomo>;
  tokenizer: Tokenizer;
  embedder: Embedder | null;
  plan: EvalPlan;
  log: (line: string) => void;
}

function meta(ctx: EvalContext) {
  return {
    dataset: ctx.dataset.name,
    tokenizer: ctx.tokenizer.name,
    embedder: ctx.embedder ? ctx.embedder.modelId : 'none',
    conversations: ctx.dataset.conversations.length,
  };
}

function logSummary(ctx: EvalContext, summary: ConversationSummary, seconds: number): void {
  ctx.log(
    `${summary.id}: ${summary.turns} turns, ${summary.questions} questions (${summary.skipped} without known evidence), ` +
      `memgpt flushes ${JSON.stringify(summary.flushes)}, problems ${JSON.stringify(summary.problems)}, ${seconds.toFixed(1)} s`,
  );
}

/** The live path (V28–V31): the turn loop, a fork per question, and the turn-cost meter. */
async function runLivePath(ctx: EvalContext): Promise<EvalResult> {
  const tally = new RecallTally();
  const costs = new Map<string, CostRecord>();
  for (const conversation of ctx.dataset.conversations) {
    const last = conversation.turns[conversation.turns.length - 1]?.at ?? 0;
    const deps = liveReplayDeps(ctx.embedder, ctx.tokenizer, () => (last + 60_000) as EpochMs, {
      prefixCache: ctx.args.engine === 'prefix',
    });
    const t0 = Date.now();
    let lastStage = '';
    const summary = await evaluateLive(
      conversation,
      ctx.plan,
      {
        ...deps,
        onProgress: (stage) => {
          if (stage !== lastStage)
            ctx.log(`  ${conversation.id}: ${stage} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
          lastStage = stage;
        },
      },
      tally,
      costs,
    );
    logSummary(ctx, summary, (Date.now() - t0) / 1000);
  }
  const cost: Record<string, Record<string, CostFigures>> = {};
  const figures = buildEvalResult(meta(ctx), tally, ctx.plan);
  for (const strategy of ctx.plan.strategies) {
    const row: Record<string, CostFigures> = {};
    for (const budget of ctx.plan.budgets) {
      const record = costs.get(costKey(strategy, budget));
      if (!record) continue;
      const summary = summarizeCost(record.turns);
      row[String(budget)] = {
        ...summary,
        flushes: record.flushes,
        prompt_limit: record.promptLimit,
        webllm_ratio_floor: webllmRatioFloor(record.promptLimit, summary.webllm_held_mean),
        pressure_warnings_per_turn:
          record.turnCount === 0
            ? 0
            : Math.round((record.warnedTurns / record.turnCount) * 1000) / 1000,
      };
      Object.assign(
        (figures.context[strategy] ??= {}),
        memoryCostFigures(budget, record.memoryTokens, record.memoryLines),
        summaryEvidenceFigures(budget, record.evictedEvidence, record.keptEvidence),
      );
    }
    cost[strategy] = row;
  }
  return { path: 'live', ...figures, cost };
}

/** Runs the whole evaluation; returns the result JSON and its tables. */
export async function runMemoryEval(
  args: EvalArgs,
): Promise<{ result: EvalResult; table: string }> {
  const started = Date.now();
  const log = (line: string) => {
    if (!args.quiet) process.stderr.write(`${line}\n`);
  };
  const dataset = parseLocomo(JSON.parse(readFileSync(args.data, 'utf8')), basename(args.data));
  const tokenizer = createLlama3Tokenizer();
  const embedder: Embedder | null = args.embedder ? await loadLocalEmbedder(args.embedder) : null;
  // Without an embedder vector mode scores 0 (empty pages) and hybrid is the lexical ranking.
  const modes: SearchMode[] = ['lexical', 'vector', 'hybrid'];
  const plan: EvalPlan = { modes, ks: args.ks, strategies: args.strategies, budgets: args.budgets };
  const ctx: EvalContext = { args, dataset, tokenizer, embedder, plan, log };
  const result = await runLivePath(ctx);
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { result, table: evalMarkdown(result, plan) };
}

async function main(): Promise<void> {
  const args = parseEvalArgs(process.argv.slice(2));
  const { result, table } = await runMemoryEval(args);
  if (args.out) writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `eval:memory failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
