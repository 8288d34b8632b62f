const newline = 0x0a;
const carriageReturn = 0x0d;

/** What a LineReader calls, in the order of the stream. */
export interface LineHandlers {
  /** A whole line, decoded, without its line end (LF or CRLF). */
  line(text: string): void;
  /** A line longer than the limit: reported once and skipped up to its newline. */
  tooLong(limit: number): void;
}

/**
 * Splits a byte stream into lines. Works on bytes, not strings, so a UTF-8
 * character split across chunks is decoded whole. A line longer than the limit
 * is reported once and skipped up to its newline, never buffered whole.
 * Handlers rather than yielded events: a line that arrives whole in one
 * chunk, as nearly every request does, is decoded straight from the chunk,
 * with no view of it, no event object and no generator step made for it.
 */
export class LineReader {
  readonly #maxLineBytes: number;
  readonly #handlers: LineHandlers;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skipping = false;

  constructor(maxLineBytes: number, handlers: LineHandlers) {
    this.#maxLineBytes = maxLineBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(newline, start);
      if (end === -1) {
        this.#keep(chunk, start);
        return;
      }
      const from = start;
      start = end + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      if (this.#buffered + (end - from) > this.#maxLineBytes) {
        this.#reset();
        this.#handlers.tooLong(this.#maxLineBytes);
        continue;
      }
      if (this.#chunks.length === 0) {
        const stop = end > from && chunk[end - 1] === carriageReturn ? end - 1 : end;
        this.#handlers.line(chunk.toString('utf8', from, stop));
        continue;
      }
      const line = Buffer.concat([...this.#chunks, chunk.subarray(from, end)]);
      this.#reset();
      const length = line.length > 0 && line[line.length - 1] === carriageReturn ? line.length - 1 : line.length;
      this.#handlers.line(line.toString('utf8', 0, length));
    }
  }

  #keep(chunk: Buffer, from: number): void {
    if (this.#skipping) return;
    if (this.#buffered + (chunk.length - from) > this.#maxLineBytes) {
      this.#reset();
      this.#skipping = true;
      this.#handlers.tooLong(this.#maxLineBytes);
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.#chunks.push(Buffer.copyBytesFrom(chunk, from));
    this.#buffered += chunk.length - from;
  }

  #reset(): void {
    if (this.#chunks.length > 0) this.#chunks = [];
    this.#buffered = 0;
  }
}
