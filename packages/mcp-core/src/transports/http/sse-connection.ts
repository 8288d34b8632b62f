import type { ServerResponse } from 'node:http';

/**
 * One SSE connection. What is written in the same I/O turn is gathered and
 * leaves in one write — for a quick call the headers, the priming event, the
 * answer and the end go out together instead of in four packets.
 */
export class SseConnection {
  readonly res: ServerResponse;
  #gathered: string | undefined = '';

  constructor(res: ServerResponse, headers: Record<string, string>) {
    this.res = res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
      ...headers,
    });
    setImmediate(() => this.#flush());
  }

  /** One event. `data` is one JSON text, which never contains a newline. */
  event(id: string, data: string, retryMs?: number): void {
    const retry = retryMs === undefined ? '' : `retry: ${retryMs}\n`;
    this.#write(`id: ${id}\n${retry}data: ${data}\n\n`);
  }

  /** One event with no id: streams of the 2026 era cannot be resumed, so their events carry none. */
  message(data: string): void {
    this.#write(`data: ${data}\n\n`);
  }

  /** A comment line: keeps proxies from closing a quiet stream, and is ignored by clients. */
  keepAlive(): void {
    this.#write(': keep-alive\n\n');
  }

  end(): void {
    const gathered = this.#gathered;
    this.#gathered = undefined;
    if (gathered) this.res.end(gathered);
    else this.res.end();
  }

  #write(text: string): void {
    if (this.res.writableEnded) return;
    if (this.#gathered === undefined) this.res.write(text);
    else this.#gathered += text;
  }

  #flush(): void {
    const gathered = this.#gathered;
    this.#gathered = undefined;
    if (this.res.writableEnded) return;
    if (gathered) this.res.write(gathered);
    else this.res.flushHeaders();
  }
}
