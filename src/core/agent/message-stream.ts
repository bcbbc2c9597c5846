/**
 * The `send_message` text of a step, decoded piece by piece as the model streams it (A9, E80):
 * the same answer as {@link partialMessage} on the whole prefix, at a cost proportional to the
 * new piece only. It keeps its place between pieces (which key it is looking for, where a match
 * started, a half-received escape) and only the unread tail of the text, so a reply of any
 * length costs linear work in all (issue 34: re-reading the whole prefix per piece froze the tab
 * for a minute on a 2 MB reply).
 */

const isSpace = (ch: string): boolean => /\s/.test(ch);

/**
 * Finds the first `"key"\s*:\s*"` in a growing text, like the regular expression would on every
 * prefix. Each candidate either fails for good (a character that cannot follow), or is still
 * open at the end of the text, where it waits for the next piece.
 */
class KeyMatcher {
  private phase: 'find' | 'before_colon' | 'after_colon' | 'found' = 'find';
  /** Absolute index of the candidate key, when one is being matched. */
  private start = -1;
  /** Absolute index of the next character to read. */
  private pos: number;

  constructor(
    private readonly key: string,
    from: number,
  ) {
    this.pos = from;
  }

  /** Absolute index just after the opening quote of the value, once found; else null. */
  feed(text: Tail): number | null {
    for (;;) {
      if (this.phase === 'found') return this.pos;
      if (this.phase === 'find') {
        const at = text.indexOf(this.key, this.pos);
        if (at < 0) {
          // A key may straddle the end: keep its possible start for the next piece.
          this.pos = Math.max(this.pos, text.end - this.key.length + 1);
          return null;
        }
        this.start = at;
        this.pos = at + this.key.length;
        this.phase = 'before_colon';
      }
      while (this.pos < text.end && isSpace(text.at(this.pos))) this.pos += 1;
      if (this.pos >= text.end) return null;
      const ch = text.at(this.pos);
      const wanted = this.phase === 'before_colon' ? ':' : '"';
      if (ch !== wanted) {
        this.phase = 'find';
        this.pos = this.start + 1;
        continue;
      }
      this.pos += 1;
      this.phase = this.phase === 'before_colon' ? 'after_colon' : 'found';
    }
  }

  /** The earliest absolute index this matcher may still read. */
  needs(): number {
    return this.phase === 'find' ? this.pos : this.start;
  }
}

/** The streamed text from an absolute offset on; what lies before `offset` is dropped. */
class Tail {
  private text = '';
  private offset = 0;

  get end(): number {
    return this.offset + this.text.length;
  }

  append(piece: string): void {
    this.text += piece;
  }

  at(index: number): string {
    return this.text[index - this.offset] ?? '';
  }

  indexOf(search: string, from: number): number {
    const at = this.text.indexOf(search, Math.max(0, from - this.offset));
    return at < 0 ? -1 : at + this.offset;
  }

  slice(from: number, to: number): string {
    return this.text.slice(from - this.offset, to - this.offset);
  }

  /** Forgets everything before `index`. */
  drop(index: number): void {
    if (index <= this.offset) return;
    this.text = this.text.slice(index - this.offset);
    this.offset = index;
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '"': '"',
  '\\': '\\',
  '/': '/',
};
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SEND_MESSAGE = 'send_message';

/** Reads one step's `send_message` text as pieces arrive. */
export interface MessageStream {
  /**
   * Adds the next piece of the step; returns the message text decoded so far (null while there
   * is none, or when the step calls another tool) and whether it grew with this piece.
   */
  push(piece: string): { text: string | null; grew: boolean };
  /** Starts over for a new step text (the engine restarted generation). */
  reset(): void;
}

/** A fresh {@link MessageStream}: the same text as `partialMessage(prefix)` after every piece. */
export function createMessageStream(): MessageStream {
  let tail = new Tail();
  let fnKey = new KeyMatcher('"function"', 0);
  /** Where the function's value starts (after its quote), its name so far, and its end. */
  let fnValue = -1;
  let fnIndex = -1;
  let phase: 'function' | 'name' | 'arguments' | 'message' | 'text' | 'closed' | 'other' =
    'function';
  let argsFrom = 0;
  let messageKey: KeyMatcher | null = null;
  let pos = 0;
  let text: string | null = null;

  const step = (): void => {
    if (phase === 'function') {
      const value = fnKey.feed(tail);
      if (value === null) return;
      fnValue = value;
      // The key's index: `"arguments"` is searched from there, as the one-shot reader does.
      fnIndex = fnKey.needs();
      phase = 'name';
    }
    if (phase === 'name') {
      const close = tail.indexOf('"', fnValue);
      const upTo = close < 0 ? tail.end : close;
      const name = tail.slice(fnValue, upTo);
      if (!SEND_MESSAGE.startsWith(name) || (close >= 0 && name !== SEND_MESSAGE)) {
        // Another tool (or a name that cannot become send_message): no message, for good.
        phase = 'other';
        return;
      }
      if (close < 0) return;
      argsFrom = fnIndex;
      phase = 'arguments';
    }
    if (phase === 'arguments') {
      const at = tail.indexOf('"arguments"', argsFrom);
      if (at < 0) {
        argsFrom = Math.max(argsFrom, tail.end - '"arguments"'.length + 1);
        return;
      }
      messageKey = new KeyMatcher('"message"', at);
      phase = 'message';
    }
    if (phase === 'message' && messageKey) {
      const from = messageKey.feed(tail);
      if (from === null) return;
      pos = from;
      text = '';
      phase = 'text';
    }
    if (phase === 'text') decode();
  };

  const decode = (): void => {
    let out = '';
    let plainFrom = pos;
    while (pos < tail.end) {
      const ch = tail.at(pos);
      if (ch !== '"' && ch !== '\\') {
        pos += 1;
        continue;
      }
      out += tail.slice(plainFrom, pos);
      if (ch === '"') {
        phase = 'closed';
        plainFrom = pos;
        break;
      }
      const next = tail.at(pos + 1);
      if (next === '') {
        plainFrom = pos;
        break;
      }
      if (next === 'u') {
        if (pos + 6 > tail.end) {
          plainFrom = pos;
          break;
        }
        const hex = tail.slice(pos + 2, pos + 6);
        // The one-shot reader stops for good at a malformed \u escape.
        if (!HEX4.test(hex)) {
          phase = 'closed';
          plainFrom = pos;
          break;
        }
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        out += ESCAPES[next] ?? next;
        pos += 2;
      }
      plainFrom = pos;
    }
    if (phase === 'text' && plainFrom < pos) out += tail.slice(plainFrom, pos);
    text = (text ?? '') + out;
  };

  const keepFrom = (): number => {
    switch (phase) {
      case 'function':
        return fnKey.needs();
      case 'name':
        return fnValue;
      case 'arguments':
        return argsFrom;
      case 'message':
        return messageKey?.needs() ?? tail.end;
      case 'text':
        return pos;
      default:
        return tail.end;
    }
  };

  return {
    push(piece) {
      if (phase === 'closed' || phase === 'other' || piece === '') {
        return { text, grew: false };
      }
      const before = text?.length ?? -1;
      tail.append(piece);
      step();
      tail.drop(keepFrom());
      return { text, grew: (text?.length ?? -1) !== before };
    },
    reset() {
      tail = new Tail();
      fnKey = new KeyMatcher('"function"', 0);
      fnValue = -1;
      fnIndex = -1;
      phase = 'function';
      argsFrom = 0;
      messageKey = null;
      pos = 0;
      text = null;
    },
  };
}
