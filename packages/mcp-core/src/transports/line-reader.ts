const newline = 0x0a;
const carriageReturn = 0x0d;

export type LineEvent = { kind: 'line'; text: string } | { kind: 'too-long'; limit: number };

/**
 * Splits a byte stream into lines. Works on bytes, not strings, so a UTF-8
 * character split across chunks is decoded whole. A line longer than the limit
 * is reported once and skipped up to its newline, never buffered whole.
 */
export class LineReader {
  readonly #maxLineBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #skipping = false;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  *push(chunk: Buffer): Generator<LineEvent> {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(newline, start);
      if (end === -1) {
        yield* this.#keep(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      if (this.#buffered + piece.length > this.#maxLineBytes) {
        this.#reset();
        yield { kind: 'too-long', limit: this.#maxLineBytes };
        continue;
      }
      const line = this.#chunks.length === 0 ? piece : Buffer.concat([...this.#chunks, piece]);
      this.#reset();
      const length = line.length > 0 && line[line.length - 1] === carriageReturn ? line.length - 1 : line.length;
      yield { kind: 'line', text: line.toString('utf8', 0, length) };
    }
  }

  *#keep(rest: Buffer): Generator<LineEvent> {
    if (this.#skipping) return;
    if (this.#buffered + rest.length > this.#maxLineBytes) {
      this.#reset();
      this.#skipping = true;
      yield { kind: 'too-long', limit: this.#maxLineBytes };
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.#chunks.push(Buffer.from(rest));
    this.#buffered += rest.length;
  }

  #reset(): void {
    this.#chunks = [];
    this.#buffered = 0;
  }
}
