/**
 * A new agent as one change set (A14): the Agent row with default budgets for its window and
 * the two Letta-style core blocks, `persona` and `human`, each at version 1 with a `system`
 * history row.
 */
import { defaultBudgets } from '../context/default-budgets';
import type { Agent, AgentId, AgentKind, CoreBlock } from '../model';
import { defaultForgettingSettings } from '../strategies/forgetting/default-forgetting-settings';
import type { BlockWrite, ChangeSet } from '../ports/memory-store';
import type { Chars, EpochMs, Tokens } from '../units';
import { inlineText } from '../text/inline-text';

/** Characters per core block in a 4k window: two blocks ≈ 400–550 tokens when full. */
export const DEFAULT_BLOCK_CHARS: Chars = 800;

/** The persona a new agent starts with, in its own name (a "Juniper" never says "I am Loci"). */
export function defaultPersona(name: string): string {
  // The name is the user's text inside the persona block's tag: one line, no tag (X232).
  const who = name.trim() === '' ? 'Loci' : inlineText(name.trim());
  return `I am ${who}, a warm, curious companion. I remember what matters to the user and say so honestly when I do not know.`;
}

export interface NewAgentInput {
  id: AgentId;
  name: string;
  now: EpochMs;
  kind?: AgentKind;
  persona?: string;
  human?: string;
  modelId?: string | null;
  window?: Tokens;
  blockChars?: Chars;
}

/** Builds a new agent and its first writes (A14); `apply(changes)` creates it. */
export function createAgentRecord(input: NewAgentInput): { agent: Agent; changes: ChangeSet } {
  const persona = input.persona ?? defaultPersona(input.name);
  const agent: Agent = {
    id: input.id,
    kind: input.kind ?? 'companion',
    name: input.name,
    persona,
    modelId: input.modelId ?? null,
    strategy: 'memgpt',
    autoRecall: true,
    budgets: defaultBudgets(input.window ?? 4096),
    forgetting: defaultForgettingSettings(),
    createdAt: input.now,
    updatedAt: input.now,
  };
  const block = (label: string, description: string, value: string): BlockWrite => {
    const row: CoreBlock = {
      agentId: input.id,
      label,
      description,
      value,
      charLimit: input.blockChars ?? DEFAULT_BLOCK_CHARS,
      readOnly: false,
      updatedAt: input.now,
      version: 1,
    };
    return {
      block: row,
      history: {
        agentId: input.id,
        label,
        version: 1,
        value,
        source: { type: 'system' },
        at: input.now,
      },
    };
  };
  return {
    agent,
    changes: {
      agents: [agent],
      blocks: [
        block('persona', 'who you are and how you speak', persona),
        block('human', 'facts about the user', input.human ?? ''),
      ],
    },
  };
}
