import type { Readable } from 'node:stream';

/** What is kept of a line over the cap: its start, its end, and how long it was. */
export interface OverlongLine {
  head: string;
  tail: string;
  bytes: number;
}

export interface BoundedLineHandlers {
  line(text: string): void;
  /** A line longer than the cap, after its end arrived; only its first and last bytes were held. */
  overlong(line: OverlongLine): void;
}

const keptBytes = 256;

/**
 * Splits a stream into lines, holding at most `maxBytes` of a line at a
 * time: a longer one is dropped as it arrives, keeping only its first and
 * last 256 bytes for the report, so a child that writes without newlines
 * cannot make the host hold more than the cap.
 */
export function readBoundedLines(stream: Readable, maxBytes: number, handlers: BoundedLineHandlers): void {
  let parts: Buffer[] = [];
  let held = 0;
  let overlong: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  const append = (piece: Buffer) => {
    if (overlong !== undefined) {
      overlong.bytes += piece.length;
      overlong.tail = Buffer.from(Buffer.concat([overlong.tail, piece]).subarray(-keptBytes));
      return;
    }
    if (held + piece.length <= maxBytes) {
      parts.push(piece);
      held += piece.length;
      return;
    }
    const whole = Buffer.concat([...parts, piece]);
    // Copies, so the dropped bytes they were cut from can be freed.
    overlong = {
      head: Buffer.from(whole.subarray(0, keptBytes)),
      tail: Buffer.from(whole.subarray(-keptBytes)),
      bytes: whole.length,
    };
    parts = [];
    held = 0;
  };

  const end = () => {
    if (overlong !== undefined) {
      handlers.overlong({
        head: overlong.head.toString('utf8'),
        tail: overlong.tail.toString('utf8'),
        bytes: overlong.bytes,
      });
      overlong = undefined;
      return;
    }
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    held = 0;
    handlers.line(text.endsWith('\r') ? text.slice(0, -1) : text);
  };

  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      append(chunk.subarray(start, newline));
      end();
      start = newline + 1;
    }
    if (start < chunk.length) append(chunk.subarray(start));
  });
  stream.on('end', () => {
    if (held > 0 || overlong !== undefined) end();
  });
}
