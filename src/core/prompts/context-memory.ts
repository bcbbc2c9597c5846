import type { UntrustedRead } from '../model';
import type { Tokens } from '../units';

/** An extra memory item placed in the prompt's memory section (not a verbatim message). */
export interface ContextMemory {
  id: string;
  text: string;
  tokens: Tokens;
  /** Why it is there: a search hit, a short-term forgetting-curve item, … */
  origin: 'recall' | 'archival' | 'short_term' | 'persona';
  score?: number;
  /** Set for a document passage: reading it marks a core-memory edit in the turn (C15). */
  untrusted?: UntrustedRead;
}
