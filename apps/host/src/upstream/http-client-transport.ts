import {
  type JsonRpcId,
  type JsonRpcPayload,
  type MessageExtra,
  MetaKey,
  mcpNameParams,
  type Transport,
} from '@toolshed/mcp-core';
import { createParser } from 'eventsource-parser';
import { HttpStatusError } from './http-status-error.ts';
import { maxUpstreamMessageBytes, OversizedMessageError, readCappedBody } from './read-capped-body.ts';

/**
 * Parses a text/event-stream body with eventsource-parser and hands each
 * event's data, as JSON, to `deliver`. An event (or a line) over the cap ends
 * the stream with an OversizedMessageError: a server cannot make the host hold
 * more than that while it waits for an event's end. An event the stream ends in
 * the middle of is dropped, as the EventSource standard (and the official
 * client) does.
 */
async function readEvents(body: ReadableStream<Uint8Array>, deliver: (message: unknown) => void): Promise<void> {
  const decoder = new TextDecoder();
  let oversized = false;
  const parser = createParser({
    onEvent(event) {
      try {
        deliver(JSON.parse(event.data));
      } catch {
        // Not JSON: not an MCP message.
      }
    },
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    // Characters, not bytes: at most four times the cap in memory, and no event of any size.
    maxBufferSize: maxUpstreamMessageBytes,
  });
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parser.feed(decoder.decode(read.value, { stream: true }));
    if (oversized) {
      // Not awaited: a server that never ends its stream would hold the cancellation up.
      reader.cancel().catch(() => {});
      throw new OversizedMessageError('an event', maxUpstreamMessageBytes);
    }
  }
  parser.feed(decoder.decode());
}

/**
 * A header value as the modern era writes it: as is when it is plain
 * visible ASCII, else (or when it could be mistaken for the encoding)
 * base64 between the `=?base64?` and `?=` markers.
 */
function headerValue(text: string): string {
  const plain = /^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(text);
  const lookalike = text.startsWith('=?base64?') && text.endsWith('?=');
  return plain && !lookalike ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/**
 * The headers a modern request carries, mirrored from its body so that
 * proxies can route without reading it; undefined for a legacy message.
 */
function modernHeaders(message: JsonRpcPayload): Record<string, string> | undefined {
  const { method, params } = message as { method?: string; params?: Record<string, unknown> };
  const version = (params?._meta as Record<string, unknown> | undefined)?.[MetaKey.protocolVersion];
  if (method === undefined || typeof version !== 'string') return undefined;
  const nameParam = mcpNameParams[method];
  const name = nameParam === undefined ? undefined : params?.[nameParam];
  return {
    'mcp-protocol-version': version,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': headerValue(name) } : {}),
  };
}

/** The JSON-RPC error in an HTTP error body, if that is what it holds. */
function rpcErrorIn(body: string): { code: number; message: string; data?: unknown } | undefined {
  try {
    const error = (JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } }).error;
    if (typeof error?.code !== 'number') return undefined;
    return { code: error.code, message: typeof error.message === 'string' ? error.message : '', data: error.data };
  } catch {
    return undefined;
  }
}

/**
 * The client side of Streamable HTTP on Node's fetch: each message is a POST;
 * an answer comes back as JSON or as an event stream, and whatever arrives on
 * a request's stream is marked as related to that request (so the host knows
 * whose call an elicitation belongs to).
 *
 * Both eras share it. A message carrying the modern `_meta` gets the modern
 * headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) and nothing of
 * a session; cancelling it closes its response stream. A legacy message gets
 * the session id from initialize; after a legacy initialize a GET stream
 * carries server notifications when the server offers one, and close ends
 * the session with DELETE.
 *
 * A modern response stream that ends before its answer is answered with an
 * error, since nothing will resume it. A 4xx whose body is a JSON-RPC error
 * is delivered as that request's error answer (modern servers answer version
 * and header problems so, legacy ones an uninitialized session); any other
 * error status fails the send with an HttpStatusError.
 */
export class HttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #abort = new AbortController();
  /** Aborts for the requests whose response is still coming, so one can be cancelled alone. */
  readonly #inFlight = new Map<JsonRpcId, AbortController>();
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #closed = false;
  onmessage: ((message: unknown, extra?: MessageExtra) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;

  constructor(url: string, headers: Record<string, string>) {
    this.#url = new URL(url);
    this.#headers = headers;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  #requestHeaders(accept: string): Record<string, string> {
    return {
      ...this.#headers,
      accept,
      ...(this.#sessionId === undefined ? {} : { 'mcp-session-id': this.#sessionId }),
      ...(this.#protocolVersion === undefined ? {} : { 'mcp-protocol-version': this.#protocolVersion }),
    };
  }

  async send(message: JsonRpcPayload): Promise<void> {
    if (this.#closed) throw new Error('The HTTP connection is closed');
    const id = (message as { id?: JsonRpcId }).id;
    const modern = modernHeaders(message);
    const request = new AbortController();
    if (id !== undefined) this.#inFlight.set(id, request);
    const done = () => {
      if (id !== undefined && this.#inFlight.get(id) === request) this.#inFlight.delete(id);
    };
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: {
          ...(modern === undefined
            ? this.#requestHeaders('application/json, text/event-stream')
            : { ...this.#headers, accept: 'application/json, text/event-stream', ...modern }),
          'content-type': 'application/json',
        },
        body: JSON.stringify(message),
        signal: AbortSignal.any([this.#abort.signal, request.signal]),
      });
      const sessionId = response.headers.get('mcp-session-id');
      const isInitialize = (message as { method?: string }).method === 'initialize';
      if (sessionId !== null && isInitialize) this.#sessionId = sessionId;
      const related = id === undefined ? undefined : { relatedRequestId: id };
      if (!response.ok) {
        const text = await readCappedBody(response.body, 64 * 1024).catch(() => '');
        const error = response.status >= 400 && response.status < 500 ? rpcErrorIn(text) : undefined;
        // The answer to this POST is this request's, whatever id the body carries (often null).
        if (error !== undefined && id !== undefined && response.status !== 401 && response.status !== 403) {
          done();
          this.onmessage?.({ jsonrpc: '2.0', id, error }, related);
          return;
        }
        throw new HttpStatusError(this.#url.href, response.status, text);
      }
      if (response.status === 202 || response.body === null) {
        done();
        return;
      }
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream')) {
        // The stream stays open while the server works; read it without holding up the send.
        let answered = false;
        readEvents(response.body, (event) => {
          const message =
            typeof event === 'object' && event !== null ? (event as { id?: JsonRpcId; method?: string }) : {};
          if (message.id === id && message.method === undefined) answered = true;
          this.onmessage?.(event, related);
        })
          .catch((error: unknown) => {
            if (this.#closed || request.signal.aborted) return;
            this.onerror?.(error as Error);
            // In either era nothing more will come on a stream the host stopped reading: its request fails with why.
            if (error instanceof OversizedMessageError && id !== undefined && !answered) {
              answered = true;
              this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32000, message: error.message } }, related);
            }
          })
          .finally(() => {
            done();
            // A modern stream is not resumed: one that ends before the answer has lost it, and the request must not wait forever.
            if (modern !== undefined && id !== undefined && !answered && !this.#closed && !request.signal.aborted) {
              const lost = { code: -32000, message: 'The response stream closed before the answer came' };
              this.onmessage?.({ jsonrpc: '2.0', id, error: lost }, related);
            }
          });
      } else {
        const text = await readCappedBody(response.body).finally(done);
        let answer: unknown;
        try {
          answer = JSON.parse(text);
        } catch {
          throw new Error(
            `${this.#url.href} answered with ${type === '' ? 'no content type' : type} that is not JSON: ${JSON.stringify(text.slice(0, 100))}`,
          );
        }
        this.onmessage?.(answer, related);
      }
      if (isInitialize) this.#openNotificationStream();
    } catch (error) {
      done();
      throw error;
    }
  }

  /** Cancels one request the modern way: its response stream is closed, which the server takes as cancellation. */
  abortRequest(id: JsonRpcId): void {
    this.#inFlight.get(id)?.abort();
    this.#inFlight.delete(id);
  }

  /** The optional GET stream for notifications the server sends outside any request (list_changed). */
  #openNotificationStream(): void {
    queueMicrotask(() => {
      fetch(this.#url, {
        method: 'GET',
        headers: this.#requestHeaders('text/event-stream'),
        signal: this.#abort.signal,
      })
        .then(async (response) => {
          if (!response.ok || response.body === null) return;
          await readEvents(response.body, (event) => this.onmessage?.(event));
        })
        .catch(() => {});
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sessionId !== undefined) {
      await fetch(this.#url, { method: 'DELETE', headers: this.#requestHeaders('application/json') }).catch(() => {});
    }
    this.#abort.abort();
    this.onclose?.();
  }
}
