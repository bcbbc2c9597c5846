/**
 * The wait before a step's first word on an engine that reads slowly (A43): the tokens the step
 * reads new and how long this device's read speed says that takes.
 */
import { expectedReadMs, type ReadSpeed } from '../../core/context/read-speed';
import type { Tokens } from '../../core/units';

export interface ReadWait {
  tokens: Tokens;
  ms: number;
}

/** Null where the speed is not known yet or there is nothing to read. */
export function readWaitFor(tokens: Tokens, speed: ReadSpeed | null): ReadWait | null {
  if (tokens <= 0 || !speed) return null;
  return { tokens, ms: expectedReadMs(speed, tokens) };
}
