import { AppError } from '../../../core/errors';

/**
 * A Server-Sent Events reader for streamed chat completions (the `text/event-stream` format of
 * the WHATWG HTML standard, §9.2): lines end in LF, CRLF or CR; `data:` lines of one event are
 * joined with LF; a blank line dispatches the event; lines starting with `:` are comments.
 * Only `data` matters for chat completions (`event`, `id` and `retry` are read and ignored).
 *
 * Work is linear in the bytes received: an unfinished line is searched for its end only in the
 * new text (E81), and a line longer than `maxLineChars` is refused with `reply_too_long`.
 */
export class SseParser {
  /** Text of the unfinished line, as pieces (joined once the line ends). */
  private pending: string[] = [];
  private pendingChars = 0;
  private data: string[] = [];
  private sawCr = false;

  constructor(
    private readonly onData: (data: string) => void,
    private readonly maxLineChars = Number.POSITIVE_INFINITY,
  ) {}

  /** Feeds decoded text; calls `onData` once per complete event. */
  push(text: string): void {
    let at = 0;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.sawCr && text.startsWith('\n')) at = 1;
    this.sawCr = false;
    const lineEnd = /\r\n|\r|\n/g;
    lineEnd.lastIndex = at;
    for (;;) {
      const match = lineEnd.exec(text);
      if (!match) break;
      this.pending.push(text.slice(at, match.index));
      const line = this.pending.join('');
      this.pending = [];
      this.pendingChars = 0;
      if (match[0] === '\r' && match.index + 1 === text.length) this.sawCr = true;
      at = match.index + match[0].length;
      this.line(line);
    }
    if (at < text.length) {
      this.pending.push(text.slice(at));
      this.pendingChars += text.length - at;
      if (this.pendingChars > this.maxLineChars) {
        throw new AppError(
          'reply_too_long',
          `The model server sent one line of more than ${this.maxLineChars.toLocaleString('en')} characters.`,
        );
      }
    }
  }

  /** The stream ended: an event without its blank line is still dispatched. */
  end(): void {
    if (this.pending.length > 0) this.line(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
    this.line('');
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        this.data = [];
        this.onData(data);
      }
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
  }
}
