import type { ServerResponse } from 'node:http';

/** Starts a text/event-stream response. */
export function openSse(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Tells nginx-style proxies not to buffer the stream.
    'x-accel-buffering': 'no',
    ...headers,
  });
  res.flushHeaders();
}

/** One SSE event. `data` is one JSON text, which never contains a newline. */
export function writeSseEvent(res: ServerResponse, id: string, data: string, retryMs?: number): void {
  const retry = retryMs === undefined ? '' : `retry: ${retryMs}\n`;
  res.write(`id: ${id}\n${retry}data: ${data}\n\n`);
}

/** A comment line: keeps proxies from closing a quiet stream, and is ignored by clients. */
export function writeSseKeepAlive(res: ServerResponse): void {
  res.write(': keep-alive\n\n');
}
