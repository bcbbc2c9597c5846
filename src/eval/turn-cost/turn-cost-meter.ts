/**
 * The turn-cost meter (issue 13 item 3): records every request an engine receives, in order,
 * grouped by turn, and prices each against the one before it ({@link requestCost}). A turn's
 * cost is the sum over its requests — its steps and any summary request a flush made during it
 * (the user waits for both). Feed it from {@link MeteredEngine}, or call {@link record} with
 * hand-built requests in a test.
 */
import type { ChatTurn } from '../../core/ports/llm-engine';
import type { ChatTemplateTokens } from './chat-template-tokens';
import {
  requestCost,
  type MeasuredExchange,
  type RequestCost,
  type RequestKind,
} from './request-cost';
import { resetCause, type KindedExchange, type ResetCause } from './reset-cause';

export type { RequestKind } from './request-cost';

export interface MeteredRequest extends RequestCost {
  kind: RequestKind;
  /** 1-based index among the turn's step requests (0 for a summary request). */
  step: number;
  /** Why web-llm prefilled the whole request (null when it kept its cache). */
  resetCause: ResetCause | null;
}

export interface MeteredTurn {
  label: string;
  requests: MeteredRequest[];
}

/** Per-turn figures over a run; every mean and percentile is over turns (a turn = sum of its requests). */
export interface CostSummary {
  turns: number;
  steps_per_turn: number;
  full_prompt_mean: number;
  new_tokens_mean: number;
  prefill_webllm_mean: number;
  prefill_lcp_mean: number;
  new_tokens_p95: number;
  prefill_webllm_p95: number;
  prefill_lcp_p95: number;
  /** Requests web-llm prefilled in full, by why (V34). */
  webllm_resets: Partial<Record<ResetCause, number>>;
  /**
   * Mean tokens a request web-llm prefilled in full held from the request before it (its full
   * prompt less its new tokens, V37): what each full prefill read again.
   */
  webllm_held_mean: number;
}

/** Means of one step position (or of summary requests) over a run. */
export interface StepCostSummary {
  requests: number;
  full_prompt_mean: number;
  new_tokens_mean: number;
  prefill_webllm_mean: number;
  prefill_lcp_mean: number;
}

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;

/** Nearest-rank percentile (p in 0..1) of `xs`; 0 when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export class TurnCostMeter {
  readonly turns: MeteredTurn[] = [];
  private previous: (MeasuredExchange & KindedExchange) | null = null;

  constructor(private readonly tokens: ChatTemplateTokens) {}

  /** Starts a new turn; requests recorded before any turn start an unnamed one. */
  beginTurn(label = `turn ${this.turns.length + 1}`): void {
    this.turns.push({ label, requests: [] });
  }

  /** Prices one request against the previous one and adds it to the current turn. */
  record(exchange: {
    kind: RequestKind;
    messages: readonly ChatTurn[];
    output: string;
    finishReason: MeasuredExchange['finishReason'];
  }): MeteredRequest {
    if (this.turns.length === 0) this.beginTurn();
    const turn = this.turns[this.turns.length - 1]!;
    const { cost, tokens } = requestCost(this.tokens, this.previous, exchange.messages);
    const cause = cost.webllmReused ? null : resetCause(this.previous, exchange);
    this.previous = {
      kind: exchange.kind,
      messages: exchange.messages,
      output: exchange.output,
      finishReason: exchange.finishReason,
      tokens,
    };
    const step =
      exchange.kind === 'step' ? turn.requests.filter((r) => r.kind === 'step').length + 1 : 0;
    const metered: MeteredRequest = { ...cost, kind: exchange.kind, step, resetCause: cause };
    turn.requests.push(metered);
    return metered;
  }

  /** The per-turn figures of every turn that sent at least one request. */
  summary(): CostSummary {
    return summarizeCost(this.turns);
  }

  /** Means per step position (`"1"`, `"2"`, …) and for summary requests (`"summary"`). */
  byStep(): Record<string, StepCostSummary> {
    return costByStep(this.turns);
  }
}

/** Per-turn figures over `turns` (those that sent at least one request). */
export function summarizeCost(all: readonly MeteredTurn[]): CostSummary {
  const turns = all.filter((t) => t.requests.length > 0);
  const sum = (t: MeteredTurn, f: (r: MeteredRequest) => number) =>
    t.requests.reduce((a, r) => a + f(r), 0);
  const webllm = turns.map((t) => sum(t, (r) => r.prefillWebllm));
  const lcp = turns.map((t) => sum(t, (r) => r.prefillLcp));
  const fresh = turns.map((t) => sum(t, (r) => r.newTokens));
  const resets: Partial<Record<ResetCause, number>> = {};
  const held: number[] = [];
  for (const t of turns) {
    for (const r of t.requests) {
      if (r.resetCause) resets[r.resetCause] = (resets[r.resetCause] ?? 0) + 1;
      if (!r.webllmReused) held.push(r.fullPrompt - r.newTokens);
    }
  }
  return {
    turns: turns.length,
    steps_per_turn: round1(mean(turns.map((t) => sum(t, (r) => (r.kind === 'step' ? 1 : 0))))),
    full_prompt_mean: round1(mean(turns.map((t) => sum(t, (r) => r.fullPrompt)))),
    new_tokens_mean: round1(mean(fresh)),
    prefill_webllm_mean: round1(mean(webllm)),
    prefill_lcp_mean: round1(mean(lcp)),
    new_tokens_p95: percentile(fresh, 0.95),
    prefill_webllm_p95: percentile(webllm, 0.95),
    prefill_lcp_p95: percentile(lcp, 0.95),
    webllm_resets: resets,
    webllm_held_mean: round1(mean(held)),
  };
}

/**
 * The least mean `prefill_webllm` ÷ mean `new_tokens` any prompt layout can reach when web-llm's
 * full prefills hold `held` tokens on average and no request exceeds `limit` tokens (V37, ADR
 * 0184): between two full prefills web-llm reads only appended messages, and those fit in what
 * the first left of `limit`, so the ratio is at least `limit / (limit − held)`. Null when `held`
 * reaches `limit` (no bound).
 */
export function webllmRatioFloor(limit: number, held: number): number | null {
  if (held >= limit) return null;
  return Math.round((limit / (limit - held)) * 100) / 100;
}

/** Means per step position (`"1"`, `"2"`, …) and for summary requests (`"summary"`). */
export function costByStep(turns: readonly MeteredTurn[]): Record<string, StepCostSummary> {
  const groups = new Map<string, MeteredRequest[]>();
  for (const turn of turns) {
    for (const r of turn.requests) {
      const key = r.kind === 'summary' ? 'summary' : String(r.step);
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
  }
  const keys = [...groups.keys()].sort((a, b) =>
    a === 'summary' ? 1 : b === 'summary' ? -1 : Number(a) - Number(b),
  );
  const out: Record<string, StepCostSummary> = {};
  for (const key of keys) {
    const rs = groups.get(key)!;
    out[key] = {
      requests: rs.length,
      full_prompt_mean: round1(mean(rs.map((r) => r.fullPrompt))),
      new_tokens_mean: round1(mean(rs.map((r) => r.newTokens))),
      prefill_webllm_mean: round1(mean(rs.map((r) => r.prefillWebllm))),
      prefill_lcp_mean: round1(mean(rs.map((r) => r.prefillLcp))),
    };
  }
  return out;
}
