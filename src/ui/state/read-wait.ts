/**
 * The wait before a step's first word on an engine that reads slowly (A43): the tokens the step
 * reads new and how long this device's latest replies of the model say that takes.
 */
import { expectedReadMs, readSpeed } from '../../core/context/read-speed';
import type { Message } from '../../core/model';
import type { Tokens } from '../../core/units';

export interface ReadWait {
  tokens: Tokens;
  ms: number;
}

/** Null where the model's speed is not known yet (no timed reply of it in `messages`). */
export function readWaitFor(
  tokens: Tokens,
  model: string | null,
  messages: readonly Message[],
): ReadWait | null {
  if (model === null || tokens <= 0) return null;
  const speed = readSpeed(
    messages.map((m) => m.stats),
    model,
  );
  return speed ? { tokens, ms: expectedReadMs(speed, tokens) } : null;
}
