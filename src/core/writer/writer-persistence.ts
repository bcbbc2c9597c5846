/**
 * Where a writing project's state lives: one setting per agent, `writer:<agentId>`, holding
 * the plain-JSON {@link WriterState}. The sections are also archival passages (the long-term
 * memory the plan searches); a step writes its passage first and the state second, so a crash
 * between the two leaves at most an orphan passage, which retrieval ignores because it only
 * keeps hits that are sections of the state (ADR 0041).
 */
import { AppError } from '../errors';
import type { AgentId } from '../model';
import type { MemoryStore } from '../ports/memory-store';
import type { WriterState } from './writer-state';

/** The setting key of an agent's writing project. */
export function writerStateKey(agentId: AgentId): string {
  return `writer:${agentId}`;
}

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Loads an agent's project, or undefined when it has none; a malformed one throws. */
export async function loadWriterState(
  store: Pick<MemoryStore, 'getSetting'>,
  agentId: AgentId,
): Promise<WriterState | undefined> {
  const value = await store.getSetting<unknown>(writerStateKey(agentId));
  if (value === undefined || value === null) return undefined;
  const v = value as Partial<WriterState>;
  if (
    v.version !== 1 ||
    v.agentId !== agentId ||
    (v.mode !== 'writer' && v.mode !== 'fiction') ||
    typeof v.shortTermMemory !== 'string' ||
    !isStringList(v.plans) ||
    !Array.isArray(v.sections)
  ) {
    throw new AppError('invalid_argument', `The writing project of agent ${agentId} is malformed.`);
  }
  return value as WriterState;
}

/** Saves the project under {@link writerStateKey}. */
export async function saveWriterState(
  store: Pick<MemoryStore, 'setSetting'>,
  state: WriterState,
): Promise<void> {
  await store.setSetting(writerStateKey(state.agentId), state);
}
