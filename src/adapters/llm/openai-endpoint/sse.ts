/**
 * A Server-Sent Events reader for streamed chat completions (the `text/event-stream` format of
 * the WHATWG HTML standard, §9.2): lines end in LF, CRLF or CR; `data:` lines of one event are
 * joined with LF; a blank line dispatches the event; lines starting with `:` are comments.
 * Only `data` matters for chat completions (`event`, `id` and `retry` are read and ignored).
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private sawCr = false;

  constructor(private readonly onData: (data: string) => void) {}

  /** Feeds decoded text; calls `onData` once per complete event. */
  push(text: string): void {
    let chunk = text;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.sawCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.sawCr = false;
    this.buffer += chunk;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) return;
      const line = this.buffer.slice(0, match.index);
      if (match[0] === '\r' && match.index + 1 === this.buffer.length) this.sawCr = true;
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  /** The stream ended: an event without its blank line is still dispatched. */
  end(): void {
    if (this.buffer.length > 0) this.line(this.buffer);
    this.buffer = '';
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
