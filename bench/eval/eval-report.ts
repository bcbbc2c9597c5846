/**
 * The result of `npm run eval:memory`: the JSON the issue fixes (top-level keys `dataset`,
 * `tokenizer`, `embedder`, `conversations`, `questions`, `retrieval`, `context`, `by_category`)
 * and the Markdown table printed beside it. "any" figures are the headline (`recall@k`, and the
 * budget keys of `context`); "all evidence" figures sit beside them (`all_recall@k`,
 * `<budget>_all`).
 */
import {
  contextFigure,
  retrievalFigure,
  type EvalPlan,
} from '../../src/core/eval/evaluate-conversation';
import type { RecallTally } from '../../src/core/eval/recall-tally';

export interface EvalResult {
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
): EvalResult {
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
    `Memory eval — ${result.dataset}: ${result.conversations} conversations, ${result.questions} questions; tokenizer ${result.tokenizer}; embedder ${result.embedder}`,
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
  return lines.join('\n');
}
