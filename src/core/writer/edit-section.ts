/**
 * The user edits a written section: the state's text changes and the section's passage is
 * rewritten and re-indexed, so the long-term memory searches what the manuscript now says.
 */
import { AppError } from '../errors';
import type { Passage } from '../model';
import type { WriterDeps } from './writer-deps';
import { saveWriterState } from './writer-persistence';
import { WRITER_TAG } from './write-step';
import type { WriterState } from './writer-state';

/** Replaces the text of section `sectionId`; an unknown id or empty text throws. */
export async function editSection(
  deps: Pick<WriterDeps, 'store' | 'search'>,
  state: WriterState,
  sectionId: string,
  text: string,
): Promise<WriterState> {
  const section = state.sections.find((s) => s.id === sectionId);
  if (section === undefined) throw new AppError('not_found', `There is no section ${sectionId}.`);
  if (text.trim() === '') throw new AppError('invalid_argument', 'A section cannot be empty.');
  const next: WriterState = {
    ...state,
    sections: state.sections.map((s) => (s.id === sectionId ? { ...s, text } : s)),
  };
  const passage: Passage = {
    id: section.id,
    agentId: state.agentId,
    text,
    source: { type: 'memory' },
    tags: [WRITER_TAG, `${WRITER_TAG}:${state.mode}`],
    at: section.at,
    embedding: null,
    embeddingModel: null,
    dimension: 0,
  };
  await deps.store.apply({ passages: [passage] });
  // Out of the indexes first, so the old text's vector and terms do not linger beside the new.
  await deps.search.removePassages(state.agentId, [passage.id]);
  await deps.search.indexPassages([passage]);
  await saveWriterState(deps.store, next);
  return next;
}
