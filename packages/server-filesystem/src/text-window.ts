import { fstatSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Which lines to read: all, the first or last N, or N from a line number. */
export interface TextWindowRequest {
  head?: number | undefined;
  tail?: number | undefined;
  /** First line to return, counting from 1. */
  offset?: number | undefined;
  /** Lines to return from `offset`. */
  limit?: number | undefined;
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

export interface TextWindow {
  text: string;
  /** Lines in the whole file. */
  totalLines: number;
  /** First and last line returned, counting from 1; 0 and 0 when none. */
  firstLine: number;
  lastLine: number;
  /** The byte cap cut the window short. */
  truncated: boolean;
  /** Where to continue (`offset`) when cut. */
  nextOffset?: number;
}

const chunkBytes = 256 * 1024;
const newline = 0x0a;

function countNewlines(buffer: Uint8Array, end: number): number {
  let count = 0;
  let index = buffer.indexOf(newline);
  while (index !== -1 && index < end) {
    count++;
    index = buffer.indexOf(newline, index + 1);
  }
  return count;
}

async function countLines(handle: FileHandle, size: number, signal: AbortSignal | undefined): Promise<number> {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let lines = 0;
  let position = 0;
  let last = newline;
  while (position < size) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    lines += countNewlines(buffer, bytesRead);
    last = buffer[bytesRead - 1] as number;
    position += bytesRead;
  }
  return position > 0 && last !== newline ? lines + 1 : lines;
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, never splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= maxBytes) return text;
  return new StringDecoder('utf8').write(encoded.subarray(0, maxBytes));
}

/**
 * A whole file under the cap: one read and one decode, no lines split and
 * joined again. The file is returned byte for byte, as the windowed path
 * returns it; a file that grew since its size was taken is read to that size.
 */
async function readWhole(handle: FileHandle, size: number, signal: AbortSignal | undefined): Promise<TextWindow> {
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  const bytes = buffer.subarray(0, length);
  const totalLines = countNewlines(bytes, length) + (length > 0 && bytes[length - 1] !== newline ? 1 : 0);
  return {
    text: bytes.toString('utf8'),
    totalLines,
    firstLine: totalLines > 0 ? 1 : 0,
    lastLine: totalLines,
    truncated: false,
  };
}

/**
 * Reads a window of lines from an open file in chunks, so a file of any size
 * costs memory for the window only. A whole-file read returns the file
 * byte for byte; a window returns its lines joined by `\n`.
 */
export async function readTextWindow(handle: FileHandle, request: TextWindowRequest): Promise<TextWindow> {
  const size = fstatSync(handle.fd).size;
  const windowed =
    request.head !== undefined ||
    request.tail !== undefined ||
    request.offset !== undefined ||
    request.limit !== undefined;
  if (!windowed && size <= request.maxBytes) return readWhole(handle, size, request.signal);
  let first = request.offset ?? 1;
  let last = request.limit === undefined ? Number.POSITIVE_INFINITY : first + request.limit - 1;
  let totalLines: number | undefined;
  if (request.head !== undefined) {
    first = 1;
    last = request.head;
  } else if (request.tail !== undefined) {
    totalLines = await countLines(handle, size, request.signal);
    first = Math.max(1, totalLines - request.tail + 1);
    last = totalLines;
  }

  const parts: string[] = [];
  let bytes = 0;
  let truncated = false;
  let firstLine = 0;
  let lastLine = 0;
  let nextOffset: number | undefined;
  let lineNumber = 1;
  let pending = '';
  let collecting = true;
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(chunkBytes);

  const take = (line: string, terminated: boolean) => {
    if (lineNumber < first || lineNumber > last) {
      if (lineNumber > last) collecting = false;
      return;
    }
    const piece = terminated ? `${line}\n` : line;
    const pieceBytes = Buffer.byteLength(piece);
    if (bytes + pieceBytes > request.maxBytes) {
      truncated = true;
      collecting = false;
      if (parts.length === 0) {
        // One line longer than the cap: return its start rather than nothing.
        parts.push(cutToBytes(piece, request.maxBytes));
        firstLine = lastLine = lineNumber;
        nextOffset = lineNumber + 1;
      } else {
        nextOffset = lineNumber;
      }
      return;
    }
    parts.push(piece);
    bytes += pieceBytes;
    if (firstLine === 0) firstLine = lineNumber;
    lastLine = lineNumber;
  };

  let position = 0;
  let newlines = 0;
  let lastByte = newline;
  while (position < size) {
    request.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    lastByte = buffer[bytesRead - 1] as number;
    if (!collecting && totalLines !== undefined) break;
    newlines += countNewlines(buffer, bytesRead);
    if (!collecting) continue;
    const text = pending + decoder.write(buffer.subarray(0, bytesRead));
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1 && collecting) {
      take(text.slice(start, end), true);
      lineNumber++;
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    pending = collecting ? text.slice(start) : '';
  }
  if (collecting) {
    pending += decoder.end();
    if (pending !== '') take(pending, false);
  }
  totalLines ??= newlines + (position > 0 && lastByte !== newline ? 1 : 0);
  let text = parts.join('');
  if (windowed && text.endsWith('\n')) text = text.slice(0, -1);
  const window: TextWindow = { text, totalLines, firstLine, lastLine, truncated };
  if (nextOffset !== undefined) window.nextOffset = nextOffset;
  return window;
}
