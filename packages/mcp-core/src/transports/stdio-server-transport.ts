import type { Readable, Writable } from 'node:stream';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcPayload } from '../messages/jsonrpc-message.ts';
import { LineReader } from './line-reader.ts';
import type { Transport } from './transport.ts';

export interface StdioServerTransportOptions {
  /** Default: process.stdin. */
  input?: Readable;
  /** Default: process.stdout. */
  output?: Writable;
  /** A longer line is refused with an error and skipped. Default 4 MiB. */
  maxLineBytes?: number;
}

const defaultMaxLineBytes = 4 * 1024 * 1024;
/** Characters from which an answer is written on its own rather than queued (see writeLarge). */
const largeLine = 64 * 1024;

/**
 * The stdio transport: one JSON-RPC message per line. Reads bytes so that
 * UTF-8 split across chunks and CRLF line ends are handled; a line that is
 * not JSON is answered with a parse error (id null) and the server goes on.
 * When the client stops reading stdout, reading stdin pauses until it drains.
 * Closes when stdin ends.
 *
 * @example
 * await server.connect(createStdioServerTransport());
 */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): Transport {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const reader = new LineReader(options.maxLineBytes ?? defaultMaxLineBytes, {
    line(text) {
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        reply(JsonRpcErrorCode.ParseError, 'Parse error: the line is not valid JSON');
        return;
      }
      transport.onmessage?.(value);
    },
    tooLong(limit) {
      reply(JsonRpcErrorCode.InvalidRequest, `Invalid request: message longer than the ${limit}-byte line limit`);
    },
  });
  let closed = false;
  let draining: Promise<void> | undefined;
  // Answers made in one turn of the event loop go out in one write: with requests pipelined, one write system
  // call per answer was the largest single cost of a call.
  let queued = '';
  let flushScheduled = false;

  function flush(): void {
    flushScheduled = false;
    if (queued === '') return;
    const chunk = queued;
    queued = '';
    if (!output.write(chunk)) waitForDrain();
  }

  /** Backpressure: stop taking new requests until the client reads what we wrote. */
  function waitForDrain(): void {
    input.pause();
    draining ??= new Promise<void>((resolve) => {
      output.once('drain', () => {
        draining = undefined;
        if (!closed) input.resume();
        resolve();
      });
    });
  }

  /**
   * A large answer (a file read, a directory tree) is written as it is, after what is queued: joined to its
   * newline or to the queue it would be a rope, which the write copies whole before it encodes it.
   */
  function writeLarge(line: string): void {
    flush();
    output.cork();
    output.write(line);
    const writable = output.write('\n');
    output.uncork();
    if (!writable) waitForDrain();
  }

  const transport: Transport = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    networkTransport: 'pipe',
    async start() {
      input.on('data', onData);
      input.once('end', finish);
      input.once('close', finish);
      input.on('error', onError);
      output.on('error', onError);
    },
    async send(message: JsonRpcPayload) {
      if (closed) return;
      if (draining !== undefined) await draining;
      const line = JSON.stringify(message);
      if (line.length >= largeLine) {
        writeLarge(line);
        return;
      }
      queued += `${line}\n`;
      if (!flushScheduled) {
        flushScheduled = true;
        // After the microtasks of this turn, so the answers they make join the same write.
        setImmediate(flush);
      }
    },
    async close() {
      finish();
    },
  };

  function reply(code: number, message: string): void {
    void transport.send({ jsonrpc: '2.0', id: null, error: { code, message } });
  }

  function onData(chunk: Buffer | string): void {
    reader.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }

  function onError(error: Error): void {
    transport.onerror?.(error);
    finish();
  }

  function finish(): void {
    if (closed) return;
    // What was answered before the end still goes out, before the process may exit.
    flush();
    closed = true;
    input.off('data', onData);
    transport.onclose?.();
  }

  return transport;
}
