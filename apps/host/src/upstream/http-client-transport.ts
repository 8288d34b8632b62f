import type { JsonRpcId, JsonRpcPayload, MessageExtra, Transport } from '@toolshed/mcp-core';

/** Parses a text/event-stream body and hands each event's data, as JSON, to `deliver`. */
async function readEvents(body: ReadableStream<Uint8Array>, deliver: (message: unknown) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string) => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return;
    try {
      deliver(JSON.parse(data));
    } catch {
      // Not JSON: not an MCP message.
    }
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
    }
  }
  flush(buffer);
}

/**
 * The client side of Streamable HTTP on Node's fetch: each message is a POST;
 * an answer comes back as JSON or as an event stream, and whatever arrives on
 * a request's stream is marked as related to that request (so the host knows
 * whose call an elicitation belongs to). The session id from initialize is
 * sent on every later request; a GET stream carries server notifications
 * when the server offers one; close ends the session with DELETE.
 */
export class HttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #abort = new AbortController();
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
    const response = await fetch(this.#url, {
      method: 'POST',
      headers: { ...this.#requestHeaders('application/json, text/event-stream'), 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: this.#abort.signal,
    });
    const sessionId = response.headers.get('mcp-session-id');
    const isInitialize = (message as { method?: string }).method === 'initialize';
    if (sessionId !== null && isInitialize) this.#sessionId = sessionId;
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new Error(
        `${this.#url.href} answered HTTP ${response.status}${text === '' ? '' : `: ${text.slice(0, 300)}`}`,
      );
    }
    if (response.status === 202 || response.body === null) return;
    const id = (message as { id?: JsonRpcId }).id;
    const related = id === undefined ? undefined : { relatedRequestId: id };
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      // The stream stays open while the server works; read it without holding up the send.
      readEvents(response.body, (event) => this.onmessage?.(event, related)).catch((error: unknown) => {
        if (!this.#closed) this.onerror?.(error as Error);
      });
    } else {
      this.onmessage?.(await response.json(), related);
    }
    if (isInitialize) this.#openNotificationStream();
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
