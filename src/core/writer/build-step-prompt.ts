/**
 * Assembles a writing step's prompt within a token budget (the window minus the reply
 * reserve). The system prompt, genre, topic, plan and any retry feedback are required; if they
 * alone do not fit, the step cannot run (`context_window_exceeded`). The rest is added in this
 * order, each part cut to what is left: the short-term memory (its head kept), the last section
 * (its tail kept — where the story goes on), the outline (head), then the related earlier
 * passages, best first; a passage that does not fit whole is cut once and the rest dropped (G6).
 */
import { AppError } from '../errors';
import type { ChatTurn } from '../ports/llm-engine';
import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';
import type { PromptLengths, StepUserParts } from './prompts';
import { stepSystemPrompt, stepUserPrompt } from './prompts';
import type { WriterMode } from './writer-state';

/** A passage cut below this many tokens is not worth its place. */
export const MIN_PASSAGE_TOKENS: Tokens = 32;
const ELLIPSIS = '…';

export interface StepPromptInput {
  mode: WriterMode;
  lengths: PromptLengths;
  genre: string;
  topic: string;
  outline: string;
  shortTermMemory: string;
  lastSection: string;
  plan: string;
  opening: boolean;
  /** Long-term passages most similar to the plan, best first. */
  passages: ReadonlyArray<{ id: string; text: string }>;
  feedback?: string;
}

export type TrimmedPart = 'memory' | 'last_section' | 'outline' | 'passages';

export interface StepPrompt {
  messages: ChatTurn[];
  /** Prompt tokens as the tokenizer counts the messages (template overhead included). */
  tokens: Tokens;
  /** Ids of the passages that made it into the prompt, in prompt order. */
  passageIds: string[];
  /** Parts that were cut or left out to fit. */
  trimmed: TrimmedPart[];
}

/** Builds the prompt; never over `budget`. */
export function buildStepPrompt(
  input: StepPromptInput,
  tokenizer: Tokenizer,
  budget: Tokens,
): StepPrompt {
  const system = stepSystemPrompt(input.mode, input.lengths);
  const systemTokens = tokenizer.countMessage('system', system);
  const parts: StepUserParts = {
    mode: input.mode,
    genre: input.genre,
    topic: input.topic,
    outline: '',
    shortTermMemory: '',
    passages: [],
    lastSection: '',
    plan: input.plan,
    opening: input.opening,
    ...(input.feedback === undefined ? {} : { feedback: input.feedback }),
  };
  const total = (p: StepUserParts): Tokens =>
    systemTokens + tokenizer.countMessage('user', stepUserPrompt(p));
  const base = total(parts);
  if (base > budget) {
    throw new AppError(
      'context_window_exceeded',
      `The plan and instructions alone need ${base} tokens; ${budget} are available.`,
      { needed: base, budget },
    );
  }
  const trimmed: TrimmedPart[] = [];

  /** The longest cut of `text` (keeping `keep`) for which `apply(cut)` fits, or ''. */
  const fit = (
    text: string,
    keep: 'head' | 'tail',
    apply: (cut: string) => StepUserParts,
  ): string => {
    if (text === '' || total(apply(text)) <= budget) return text;
    const chars = [...text];
    const cutAt = (n: number): string =>
      n === 0
        ? ''
        : keep === 'head'
          ? chars.slice(0, n).join('') + ELLIPSIS
          : ELLIPSIS + chars.slice(-n).join('');
    let lo = 0;
    let hi = chars.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (total(apply(cutAt(mid))) <= budget) lo = mid;
      else hi = mid - 1;
    }
    return cutAt(lo);
  };

  const memory = fit(input.shortTermMemory, 'head', (cut) => ({ ...parts, shortTermMemory: cut }));
  if (memory !== input.shortTermMemory) trimmed.push('memory');
  parts.shortTermMemory = memory;

  const last = fit(input.lastSection, 'tail', (cut) => ({ ...parts, lastSection: cut }));
  if (last !== input.lastSection) trimmed.push('last_section');
  parts.lastSection = last;

  const outline = fit(input.outline, 'head', (cut) => ({ ...parts, outline: cut }));
  if (outline !== input.outline) trimmed.push('outline');
  parts.outline = outline;

  const passageIds: string[] = [];
  for (const passage of input.passages) {
    const withPassage = (cut: string): StepUserParts => ({
      ...parts,
      passages: [...parts.passages, cut],
    });
    const cut = fit(passage.text, 'head', withPassage);
    if (cut === passage.text) {
      parts.passages = [...parts.passages, cut];
      passageIds.push(passage.id);
      continue;
    }
    if (tokenizer.count(cut) >= MIN_PASSAGE_TOKENS) {
      parts.passages = [...parts.passages, cut];
      passageIds.push(passage.id);
    }
    trimmed.push('passages');
    break;
  }

  const user = stepUserPrompt(parts);
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    tokens: total(parts),
    passageIds,
    trimmed,
  };
}
