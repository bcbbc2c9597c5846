/**
 * `npm run eval:memory -- --data <file> [--out <result.json>] [--budgets 1500,3000]
 * [--k 5,10,25] [--embedder <local model dir> | --no-embedder]`
 *
 * Scores Loci's memory on a LoCoMo-format file without an LLM (docs/spec/eval.md): evidence
 * recall of `conversation_search` in each search mode, and whether each context strategy's
 * prompt holds the evidence. Prints a Markdown table; writes the JSON with `--out`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createAgentRecord } from '../src/core/agent/create-agent-record';
import { evaluateConversation, type EvalPlan } from '../src/core/eval/evaluate-conversation';
import { parseLocomo } from '../src/core/eval/parse-locomo';
import { EVAL_STRATEGIES } from '../src/core/eval/question-context';
import { RecallTally } from '../src/core/eval/recall-tally';
import type { Embedder } from '../src/core/ports/embedder';
import type { SearchMode } from '../src/core/ports/memory-search';
import { createToolRegistry } from '../src/core/tools/tool-registry';
import type { EpochMs } from '../src/core/units';
import { buildEvalResult, evalMarkdown, type EvalResult } from './eval/eval-report';
import {
  FIXTURE_MODEL_DIR,
  conversationRuntime,
  createLlama3Tokenizer,
  loadLocalEmbedder,
} from './eval/eval-runtime';

export interface EvalArgs {
  data: string;
  out?: string;
  budgets: number[];
  ks: number[];
  embedder: string | null;
  quiet: boolean;
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
      case '--quiet':
        args.quiet = true;
        break;
      case '--':
        break;
      default:
        throw new Error(
          `Unknown option ${flag}. Usage: eval:memory -- --data <file> [--out <json>] [--budgets 1500,3000] [--k 5,10,25] [--embedder <dir> | --no-embedder]`,
        );
    }
  }
  if (args.data === '') throw new Error('--data <LoCoMo-format file> is required.');
  return args;
}

/** Runs the whole evaluation; returns the result JSON and its table. */
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
  const plan: EvalPlan = { modes, ks: args.ks, strategies: EVAL_STRATEGIES, budgets: args.budgets };
  const tally = new RecallTally();
  const tools = createToolRegistry().specs([]);
  for (const conversation of dataset.conversations) {
    const first = conversation.turns[0]?.at ?? 0;
    const last = conversation.turns[conversation.turns.length - 1]?.at ?? 0;
    const runtime = await conversationRuntime(
      embedder,
      tokenizer,
      () => (last + 60_000) as EpochMs,
    );
    const { agent } = createAgentRecord({
      id: `eval-${conversation.id}`,
      name: conversation.speakers[1],
      now: first as EpochMs,
    });
    const t0 = Date.now();
    let lastStage = '';
    const summary = await evaluateConversation(
      conversation,
      agent,
      plan,
      {
        ...runtime,
        tools,
        onProgress: (stage) => {
          if (stage !== lastStage)
            log(`  ${conversation.id}: ${stage} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
          lastStage = stage;
        },
      },
      tally,
    );
    await runtime.close();
    log(
      `${conversation.id}: ${summary.turns} turns, ${summary.questions} questions (${summary.skipped} without known evidence), ` +
        `memgpt flushes ${JSON.stringify(summary.flushes)}, planner problems ${JSON.stringify(summary.problems)}, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const result = buildEvalResult(
    {
      dataset: dataset.name,
      tokenizer: tokenizer.name,
      embedder: embedder ? embedder.modelId : 'none',
      conversations: dataset.conversations.length,
    },
    tally,
    plan,
  );
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
