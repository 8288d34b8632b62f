import {
  type Implementation,
  type JsonRpcId,
  type JsonRpcPayload,
  latestLegacyProtocolVersion,
  type MessageExtra,
  type Transport,
} from '@toolshed/mcp-core';

/** A JSON-RPC error an upstream answered with. */
export class UpstreamRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'UpstreamRpcError';
    this.code = code;
    this.data = data;
  }
}

/** Progress an upstream reported for one request. */
export type ProgressUpdate = { progress: number; total?: number | undefined; message?: string | undefined };

export interface UpstreamRequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
  /** Answers the requests the upstream sends while handling this one (elicitation, roots, sampling). */
  onServerRequest?: ServerRequestHandler | undefined;
}

export type ServerRequestHandler = (method: string, params: Record<string, unknown>) => Promise<unknown>;

interface PendingRequest {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  options: UpstreamRequestOptions;
}

/** What `initialize` told us. */
export interface UpstreamIdentity {
  protocolVersion: string;
  serverInfo: Implementation | undefined;
  capabilities: Record<string, unknown>;
  instructions: string | undefined;
}

type Incoming = {
  jsonrpc?: string;
  id?: JsonRpcId;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

/**
 * The host's side of one upstream connection: a lean MCP client over any
 * Transport (an in-memory pair, a child's pipes, Streamable HTTP). It sends
 * requests with progress tokens, turns an abort into notifications/cancelled,
 * and routes what the upstream asks in the middle of a call (elicitation,
 * roots, sampling) to the caller of that call: by the request it relates to
 * when the transport says, else to the only call in flight. With several in
 * flight and no relation, nobody can be told apart, so it is refused.
 */
export class UpstreamSession {
  readonly #transport: Transport;
  readonly #pending = new Map<JsonRpcId, PendingRequest>();
  #nextId = 1;
  #closed = false;
  identity: UpstreamIdentity | undefined;
  onToolsChanged: (() => void) | undefined;
  onLog: ((params: Record<string, unknown>) => void) | undefined;
  onClose: (() => void) | undefined;

  constructor(transport: Transport) {
    this.#transport = transport;
    transport.onmessage = (message, extra) => this.#receive(message as Incoming, extra);
    transport.onclose = () => this.#closedByPeer();
    transport.onerror = () => {};
  }

  /**
   * Capabilities default to what the host can pass on to the caller of a
   * call: elicitation and sampling. Not roots: one upstream connection serves
   * every caller, and their roots differ, so a server keeps the directories
   * its operator gave it.
   */
  async initialize(
    clientInfo: Implementation,
    capabilities: Record<string, unknown> = { elicitation: { form: {} }, sampling: {} },
  ): Promise<UpstreamIdentity> {
    await this.#transport.start();
    const result = (await this.request('initialize', {
      protocolVersion: latestLegacyProtocolVersion,
      capabilities,
      clientInfo,
    })) as {
      protocolVersion: string;
      serverInfo?: Implementation;
      capabilities?: Record<string, unknown>;
      instructions?: string;
    };
    (this.#transport as { setProtocolVersion?: (version: string) => void }).setProtocolVersion?.(
      result.protocolVersion,
    );
    await this.#transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    this.identity = {
      protocolVersion: result.protocolVersion,
      serverInfo: result.serverInfo,
      capabilities: result.capabilities ?? {},
      instructions: result.instructions,
    };
    return this.identity;
  }

  request(method: string, params: Record<string, unknown>, options: UpstreamRequestOptions = {}): Promise<unknown> {
    if (this.#closed) return Promise.reject(new UpstreamRpcError(-32000, 'The upstream connection is closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    const sent =
      options.onProgress === undefined
        ? params
        : { ...params, _meta: { ...(params._meta as Record<string, unknown> | undefined), progressToken: id } };
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (!this.#pending.delete(id)) return;
        this.#transport
          .send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: 'cancelled by the caller' },
          })
          .catch(() => {});
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#pending.set(id, {
        options,
        resolve: (result) => {
          signal?.removeEventListener('abort', abort);
          resolve(result);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      });
      this.#transport.send({ jsonrpc: '2.0', id, method, params: sent } as JsonRpcPayload).catch((error: unknown) => {
        this.#pending.get(id)?.reject(error);
        this.#pending.delete(id);
      });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#transport.close().catch(() => {});
    this.#failPending();
  }

  #closedByPeer(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#failPending();
    this.onClose?.();
  }

  #failPending(): void {
    for (const pending of this.#pending.values()) {
      pending.reject(new UpstreamRpcError(-32000, 'The upstream connection closed before it answered'));
    }
    this.#pending.clear();
  }

  #receive(message: Incoming, extra: MessageExtra | undefined): void {
    if (message.method === undefined) {
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (pending === undefined || message.id === undefined) return;
      this.#pending.delete(message.id);
      if (message.error !== undefined) {
        pending.reject(new UpstreamRpcError(message.error.code, message.error.message, message.error.data));
      } else {
        pending.resolve(message.result);
      }
      return;
    }
    if (message.id !== undefined) {
      this.#answer(message.id, message.method, message.params ?? {}, extra?.relatedRequestId);
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case 'notifications/progress': {
        const pending = this.#pending.get(params.progressToken as JsonRpcId);
        pending?.options.onProgress?.({
          progress: params.progress as number,
          total: params.total as number | undefined,
          message: params.message as string | undefined,
        });
        return;
      }
      case 'notifications/tools/list_changed':
        this.onToolsChanged?.();
        return;
      case 'notifications/message':
        this.onLog?.(params);
        return;
      default:
    }
  }

  /** The caller a server-to-client request belongs to. */
  #handlerFor(relatedRequestId: JsonRpcId | undefined): ServerRequestHandler | undefined {
    if (relatedRequestId !== undefined) return this.#pending.get(relatedRequestId)?.options.onServerRequest;
    const handlers = [...this.#pending.values()].map((pending) => pending.options.onServerRequest);
    return handlers.length === 1 ? handlers[0] : undefined;
  }

  #answer(
    id: JsonRpcId,
    method: string,
    params: Record<string, unknown>,
    relatedRequestId: JsonRpcId | undefined,
  ): void {
    const reply = (payload: { result: unknown } | { error: { code: number; message: string } }) =>
      this.#transport.send({ jsonrpc: '2.0', id, ...payload } as JsonRpcPayload).catch(() => {});
    if (method === 'ping') {
      void reply({ result: {} });
      return;
    }
    const handler = this.#handlerFor(relatedRequestId);
    if (handler === undefined) {
      void reply({
        error: {
          code: -32603,
          message: `${method} cannot be routed to a caller: no single call is waiting on this server`,
        },
      });
      return;
    }
    handler(method, params).then(
      (result) => reply({ result }),
      (error: unknown) =>
        reply({
          error: {
            code: error instanceof UpstreamRpcError ? error.code : -32603,
            message: error instanceof Error ? error.message : String(error),
          },
        }),
    );
  }
}
