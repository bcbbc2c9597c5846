import { getContext, setContext } from 'svelte';
import type { Passage, PassageId } from '../../../core/model';

/** Fetches passages by id, so rendered replies can resolve their citations (U138). */
export type PassageResolver = (ids: PassageId[]) => Promise<Passage[]>;

const KEY = Symbol('loci.passage-resolver');

/** Makes `resolve` available to every message bubble below the calling component. */
export function providePassageResolver(resolve: PassageResolver): void {
  setContext(KEY, resolve);
}

/** The resolver an ancestor provided, or null (bubbles then show replies without citations). */
export function usePassageResolver(): PassageResolver | null {
  return getContext<PassageResolver | undefined>(KEY) ?? null;
}
