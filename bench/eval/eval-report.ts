/**
 * The result of `npm run eval:memory`: the JSON the issue fixes (top-level keys `path`,
 * `dataset`, `tokenizer`, `embedder`, `conversations`, `questions`, `retrieval`, `context`,
 * `by_category` and `cost`) and the Markdown tables printed beside it. "any" figures are the headline
 * (`recall@k`, and the budget keys of `context`); "all evidence" figures sit beside them
 * (`all_recall@k`, `<budget>_all`). docs/eval-results.md documents the contract.
 */
import { contextFigure, retrievalFigure, type EvalPlan } from '../../src/eval/eval-plan';
import type { RecallTally } from '../../src/eval/recall-tally';

import type { CostSummary } from '../../src/eval/turn-cost/turn-cost-meter';

/** `cost.<strategy>["<budget>"]`: per-turn means and p95 over the replay, and its flushes. */
export interface CostFigures extends CostSummary {
  flushes: number;
  /** The largest prompt the replay allowed (window less reply reserve, V37). */
  prompt_limit: number;
  /** The least `prefill_webllm` ÷ `new_tokens` any layout reaches with this held mean (V37). */
  webllm_ratio_floor: number | null;
  /** Replayed turns whose first prompt carried the memory-pressure alert ÷ turns (V38). */
  pressure_warnings_per_turn: number;
}

/** What recall costs in the prompt (V38): keys of `context.<strategy>` beside the recall figures. */
export function memoryCostFigures(
  budget: number,
  tokens: readonly number[],
  lines: readonly number[],
): Record<string, number> {
  const mean = (xs: readonly number[]) =>
    xs.length === 0 ? 0 : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const sorted = [...tokens].sort((a, b) => a - b);
  const p95 =
    sorted.length === 0
      ? 0
      : sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  const linesMean =
    lines.length === 0
      ? 0
      : Math.round((lines.reduce((a, b) => a + b, 0) / lines.length) * 10) / 10;
  return {
    [`${budget}_memory_tokens_mean`]: mean(tokens),
    [`${budget}_memory_tokens_p95`]: p95,
    [`${budget}_memory_lines_mean`]: linesMean,
  };
}

/**
 * How much of what the queue evicted the summary still holds (V39): keys of
 * `context.<strategy>` beside the recall figures. `<budget>_summary_evidence_evicted` counts the
 * evidence turns of scored questions out of the queue when the questions were asked;
 * `<budget>_summary_evidence_kept` is the share of them in the summary's text, absent when none
 * was evicted.
 */
export function summaryEvidenceFigures(
  budget: number,
  evicted: number,
  kept: number,
): Record<string, number> {
  return {
    [`${budget}_summary_evidence_evicted`]: evicted,
    ...(evicted === 0
      ? {}
      : { [`${budget}_summary_evidence_kept`]: Math.round((kept / evicted) * 1000) / 1000 }),
  };
}

/** The figures of one path. */
export interface EvalFigures {
  dataset: string;
  tokenizer: string;
  embedder: string;
  conversations: number;
  questions: number;
  retrieval: Record<string, Record<string, number>>;
  context: Record<string, Record<string, number>>;
  by_category: Record<
    string,
    {
      questions: number;
      retrieval: Record<string, Record<string, number>>;
      context: Record<string, Record<string, number>>;
    }
  >;
}

export interface EvalResult extends EvalFigures {
  /** Always `live` (V28): the one replay there is, named so older readers of the JSON find it. */
  path: 'live';
  /** What a turn costs an engine, per strategy and budget (V26, V31). */
  cost: Record<string, Record<string, CostFigures>>;
}

function figures(tally: RecallTally, plan: EvalPlan, category: string) {
  const retrieval: Record<string, Record<string, number>> = {};
  for (const mode of plan.modes) {
    const row: Record<string, number> = {};
    for (const k of plan.ks)
      row[`recall@${k}`] = tally.recall(retrievalFigure(mode, 'any', k), category);
    for (const k of plan.ks)
      row[`all_recall@${k}`] = tally.recall(retrievalFigure(mode, 'all', k), category);
    retrieval[mode] = row;
  }
  const context: Record<string, Record<string, number>> = {};
  for (const strategy of plan.strategies) {
    const row: Record<string, number> = {};
    for (const b of plan.budgets)
      row[String(b)] = tally.recall(contextFigure(strategy, b, 'any'), category);
    for (const b of plan.budgets)
      row[`${b}_all`] = tally.recall(contextFigure(strategy, b, 'all'), category);
    context[strategy] = row;
  }
  return { retrieval, context };
}

/** The eval JSON from a filled tally. */
export function buildEvalResult(
  meta: { dataset: string; tokenizer: string; embedder: string; conversations: number },
  tally: RecallTally,
  plan: EvalPlan,
): EvalFigures {
  const probe =
    plan.modes[0] && plan.ks[0] !== undefined
      ? retrievalFigure(plan.modes[0], 'any', plan.ks[0])
      : null;
  const probeContext =
    plan.strategies[0] && plan.budgets[0] !== undefined
      ? contextFigure(plan.strategies[0], plan.budgets[0], 'any')
      : null;
  const asked = (category: string) =>
    probe
      ? tally.cell(probe, category).asked
      : probeContext
        ? tally.cell(probeContext, category).asked
        : 0;
  const all = figures(tally, plan, 'all');
  const byCategory: EvalResult['by_category'] = {};
  for (const category of tally.categories()) {
    byCategory[category] = { questions: asked(category), ...figures(tally, plan, category) };
  }
  return {
    dataset: meta.dataset,
    tokenizer: meta.tokenizer,
    embedder: meta.embedder,
    conversations: meta.conversations,
    questions: asked('all'),
    retrieval: all.retrieval,
    context: all.context,
    by_category: byCategory,
  };
}

const pct = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));

/** The printed table: retrieval per mode and k, context per strategy and budget, any / all. */
export function evalMarkdown(result: EvalResult, plan: EvalPlan): string {
  const lines: string[] = [];
  lines.push(
    `Memory eval (${result.path} path) — ${result.dataset}: ${result.conversations} conversations, ${result.questions} questions; tokenizer ${result.tokenizer}; embedder ${result.embedder}`,
    '',
    `| retrieval (any / all evidence) | ${plan.ks.map((k) => `@${k}`).join(' | ')} |`,
    `|---|${plan.ks.map(() => '---').join('|')}|`,
  );
  for (const mode of plan.modes) {
    const row = result.retrieval[mode] ?? {};
    lines.push(
      `| ${mode} | ${plan.ks.map((k) => `${pct(row[`recall@${k}`])} / ${pct(row[`all_recall@${k}`])}`).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    `| context (any / all evidence) | ${plan.budgets.map((b) => `${b} tokens`).join(' | ')} |`,
    `|---|${plan.budgets.map(() => '---').join('|')}|`,
  );
  for (const strategy of plan.strategies) {
    const row = result.context[strategy] ?? {};
    lines.push(
      `| ${strategy} | ${plan.budgets.map((b) => `${pct(row[String(b)])} / ${pct(row[`${b}_all`])}`).join(' | ')} |`,
    );
  }
  {
    lines.push(
      '',
      `| recalled memory per question (tokens mean / p95 · lines mean) | ${plan.budgets.map((b) => `${b} tokens`).join(' | ')} |`,
      `|---|${plan.budgets.map(() => '---').join('|')}|`,
    );
    for (const strategy of plan.strategies) {
      const row = result.context[strategy] ?? {};
      lines.push(
        `| ${strategy} | ${plan.budgets.map((b) => `${row[`${b}_memory_tokens_mean`] ?? '–'} / ${row[`${b}_memory_tokens_p95`] ?? '–'} · ${row[`${b}_memory_lines_mean`] ?? '–'}`).join(' | ')} |`,
      );
    }
    lines.push(
      '',
      `| evicted evidence still in the summary (kept · of evicted turns, V39) | ${plan.budgets.map((b) => `${b} tokens`).join(' | ')} |`,
      `|---|${plan.budgets.map(() => '---').join('|')}|`,
    );
    for (const strategy of plan.strategies) {
      const row = result.context[strategy] ?? {};
      lines.push(
        `| ${strategy} | ${plan.budgets.map((b) => `${pct(row[`${b}_summary_evidence_kept`])} · ${row[`${b}_summary_evidence_evicted`] ?? '–'}`).join(' | ')} |`,
      );
    }
  }
  const k = plan.ks.includes(10) ? 10 : plan.ks[plan.ks.length - 1];
  const budget = plan.budgets[plan.budgets.length - 1];
  lines.push(
    '',
    `| category | questions | ${plan.modes.map((m) => `${m} @${k}`).join(' | ')} | ${plan.strategies.map((s) => `${s} ${budget}`).join(' | ')} |`,
    `|---|---|${plan.modes.map(() => '---').join('|')}|${plan.strategies.map(() => '---').join('|')}|`,
  );
  for (const [name, cat] of Object.entries(result.by_category)) {
    lines.push(
      `| ${name} | ${cat.questions} | ${plan.modes.map((m) => pct(cat.retrieval[m]?.[`recall@${k}`])).join(' | ')} | ${plan.strategies.map((s) => pct(cat.context[s]?.[String(budget)])).join(' | ')} |`,
    );
  }
  {
    lines.push(
      '',
      `| cost per turn (${result.path}) | budget | turns | steps/turn | full prompt | new tokens | prefill web-llm | prefill LCP | new p95 | web-llm p95 | LCP p95 | flushes | pressure warnings/turn |`,
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const strategy of plan.strategies) {
      for (const b of plan.budgets) {
        const c = result.cost[strategy]?.[String(b)];
        if (!c) continue;
        lines.push(
          `| ${strategy} | ${b} | ${c.turns} | ${c.steps_per_turn} | ${c.full_prompt_mean} | ${c.new_tokens_mean} | ${c.prefill_webllm_mean} | ${c.prefill_lcp_mean} | ${c.new_tokens_p95 ?? ''} | ${c.prefill_webllm_p95} | ${c.prefill_lcp_p95} | ${c.flushes} | ${c.pressure_warnings_per_turn} |`,
        );
      }
    }
  }
  {
    lines.push(
      '',
      `| web-llm full prefills (${result.path}) | budget | requests | held (mean) | ratio: floor / measured (V37) | why (V34) |`,
      '|---|---|---|---|---|---|',
    );
    for (const strategy of plan.strategies) {
      for (const b of plan.budgets) {
        const c = result.cost[strategy]?.[String(b)];
        if (!c?.webllm_resets) continue;
        const causes = Object.entries(c.webllm_resets).sort((x, y) => (y[1] ?? 0) - (x[1] ?? 0));
        const total = causes.reduce((sum, [, n]) => sum + (n ?? 0), 0);
        const why = causes.map(([cause, n]) => `${cause} ${n}`).join(', ');
        const measured =
          c.new_tokens_mean > 0 ? (c.prefill_webllm_mean / c.new_tokens_mean).toFixed(2) : '–';
        lines.push(
          `| ${strategy} | ${b} | ${total} | ${c.webllm_held_mean} | ${c.webllm_ratio_floor ?? '–'} / ${measured} | ${why || 'none'} |`,
        );
      }
    }
  }
  return lines.join('\n');
}
