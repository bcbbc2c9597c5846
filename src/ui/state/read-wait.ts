/**
 * The wait before a step's first word on an engine that reads slowly (A43), and the recall cap of
 * a fast reply (A44), both from this device's read speed: remembered across chats when there is a
 * book of it, else from the chat's own timed replies.
 */
import {
  expectedReadMs,
  fastRecallCap,
  readSpeed,
  type ReadSpeed,
} from '../../core/context/read-speed';
import type { Message } from '../../core/model';
import type { Tokens } from '../../core/units';
import type { ReadSpeedSource } from './read-speed-book';

export interface ReadWait {
  tokens: Tokens;
  ms: number;
}

/** Null where the speed is not known yet or there is nothing to read. */
export function readWaitFor(tokens: Tokens, speed: ReadSpeed | null): ReadWait | null {
  if (tokens <= 0 || !speed) return null;
  return { tokens, ms: expectedReadMs(speed, tokens) };
}

export class ReplyTiming {
  constructor(
    private readonly deps: { speeds?: ReadSpeedSource; fastReplies?: () => boolean },
    private readonly messages: () => readonly Message[],
  ) {}

  /** This device's read speed for `model`. */
  speedOf(model: string): ReadSpeed | null {
    return (
      this.deps.speeds?.speed(model) ??
      readSpeed(
        this.messages().map((m) => m.stats),
        model,
      )
    );
  }

  /** What a step that reads `tokens` new waits with `model`, when known. */
  waitFor(tokens: Tokens, model: string | null): ReadWait | null {
    return readWaitFor(tokens, model === null ? null : this.speedOf(model));
  }

  /** Null when "Thorough memory" is chosen or the speed is not known yet. */
  recallCapFor(model: string | null): Tokens | null {
    if (!this.deps.fastReplies?.() || model === null) return null;
    return fastRecallCap(this.speedOf(model));
  }
}
