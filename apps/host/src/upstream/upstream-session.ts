import {
  type AuthInfo,
  type Implementation,
  type JsonRpcId,
  type JsonRpcPayload,
  latestLegacyProtocolVersion,
  type MessageExtra,
  MetaKey,
  modernProtocolVersions,
  type Transport,
  uiExtension,
  viewMimeType,
} from '@toolshed/mcp-core';
import { classifyProbe, type ProbeOutcome, probeOutcomeOf } from './era-probe.ts';
import { runInputRounds } from './input-required-rounds.ts';
import { withModernEnvelope } from './modern-envelope.ts';
import { UpstreamClosedError, UpstreamConnectError, UpstreamRpcError } from './upstream-errors.ts';
import { followUpstreamTask, withTasksDeclared } from './upstream-task.ts';

/** Progress an upstream reported for one request. */
export type ProgressUpdate = { progress: number; total?: number | undefined; message?: string | undefined };

export interface UpstreamRequestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
  /**
   * Answers what the upstream asks while handling this request (elicitation,
   * roots, sampling): its requests in the legacy era, the `inputRequests` of
   * an `input_required` result in the modern era.
   */
  onServerRequest?: ServerRequestHandler | undefined;
  /** Modern era: the capabilities this request declares, when they are not the connection's (what its caller can answer). */
  clientCapabilities?: Record<string, unknown> | undefined;
  /** Notifications that belong to this request: sent on its stream, or tagged with its subscription id. */
  onNotification?: ((method: string, params: Record<string, unknown>) => void) | undefined;
  /**
   * The verified identity of the caller this request is made for, handed to
   * the transport with every attempt of it. Only the in-memory pair carries
   * it, to a server in this process; see Upstream for who may be given it.
   */
  authInfo?: AuthInfo | undefined;
  /** W3C trace context (`traceparent`, …) for a tools/call's `_meta`: the host's span for the call. */
  traceContext?: Record<string, string> | undefined;
}

export type ServerRequestHandler = (method: string, params: Record<string, unknown>) => Promise<unknown>;

interface ExchangeOptions extends UpstreamRequestOptions {
  /** Give up on the answer without telling the server (a probe it may not understand). */
  silentAbort?: boolean;
}

interface PendingRequest {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  options: ExchangeOptions;
}

/** legacy: 2024-11-05 … 2025-11-25, with initialize and a session; modern: stateless, 2026-07-28 on. */
export type ProtocolEra = 'legacy' | 'modern';

/** What the upstream told us about itself: its answer to server/discover or to initialize. */
export interface UpstreamIdentity {
  era: ProtocolEra;
  protocolVersion: string;
  serverInfo: Implementation | undefined;
  capabilities: Record<string, unknown>;
  instructions: string | undefined;
  /** Legacy era: what the server did with server/discover that made it legacy. */
  legacyBecause?: string | undefined;
}

export interface ConnectOptions {
  clientInfo: Implementation;
  /**
   * Defaults to what the host can pass on to the caller of a call:
   * elicitation and sampling. Not roots: a legacy connection serves every
   * caller, and their roots differ, so a server keeps the directories its
   * operator gave it.
   */
  capabilities?: Record<string, unknown> | undefined;
  /**
   * How long server/discover may go unanswered before silence is taken for
   * a legacy server (local connections). Undefined: no limit of its own
   * (HTTP, where silence is an outage, not an era).
   */
  probeTimeLimitMs?: number | undefined;
  /** Known to be legacy (it closed the connection on an earlier probe): go straight to initialize. */
  legacy?: boolean | undefined;
}

type Incoming = {
  jsonrpc?: string;
  id?: JsonRpcId;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

// The host passes views through (MCP Apps), so upstreams list their app-only tools and views to it; it hides them
// from callers that render no views itself.
const defaultCapabilities = {
  elicitation: { form: {} },
  sampling: {},
  extensions: { [uiExtension]: { mimeTypes: [viewMimeType] } },
};

/**
 * The host's side of one upstream connection: a lean MCP client over any
 * Transport (an in-memory pair, a child's pipes, Streamable HTTP), in either
 * era. It opens with server/discover and, unless the answer shows a modern
 * server, falls back to initialize on the same connection. It sends requests
 * with progress tokens, turns an abort into the era's cancellation, and
 * routes what the upstream asks in the middle of a call to the caller of
 * that call: in the modern era the questions of an input_required result;
 * in the legacy era the server's own requests, by the request they relate
 * to when the transport says, else to the only call in flight. With several
 * in flight and no relation, nobody can be told apart, so it is refused.
 */
export class UpstreamSession {
  readonly #transport: Transport;
  readonly #pending = new Map<JsonRpcId, PendingRequest>();
  #nextId = 1;
  #closed = false;
  #clientInfo: Implementation = { name: 'toolshed-host', version: '0' };
  #capabilities: Record<string, unknown> = defaultCapabilities;
  identity: UpstreamIdentity | undefined;
  onToolsChanged: (() => void) | undefined;
  /** The server's prompts, resources or resource templates changed. */
  onListChanged: ((list: 'prompts' | 'resources') => void) | undefined;
  /** A resource the server serves changed (`notifications/resources/updated`). */
  onResourceUpdated: ((uri: string) => void) | undefined;
  onLog: ((params: Record<string, unknown>) => void) | undefined;
  onClose: (() => void) | undefined;

  constructor(transport: Transport) {
    this.#transport = transport;
    transport.onmessage = (message, extra) => this.#receive(message as Incoming, extra);
    transport.onclose = () => this.#closedByPeer();
    transport.onerror = () => {};
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Finds out the upstream's era and gets ready to use it: server/discover
   * first (at the newest stateless revision, once more at another if the
   * server names one we speak), then initialize when the server is not
   * modern. One connection throughout: a child is never started twice.
   */
  async connect(options: ConnectOptions): Promise<UpstreamIdentity> {
    this.#clientInfo = options.clientInfo;
    this.#capabilities = options.capabilities ?? defaultCapabilities;
    await this.#transport.start();
    if (options.legacy === true) return this.#initialize('it closed the connection on an earlier server/discover');
    const tried = new Set<string>();
    let version = modernProtocolVersions[0] ?? '2026-07-28';
    for (;;) {
      tried.add(version);
      const verdict = classifyProbe(await this.#probe(version, options.probeTimeLimitMs));
      switch (verdict.kind) {
        case 'modern':
          this.identity = {
            era: 'modern',
            protocolVersion: verdict.version,
            serverInfo: verdict.discover.serverInfo,
            capabilities: verdict.discover.capabilities,
            instructions: verdict.discover.instructions,
          };
          return this.identity;
        case 'retry':
          if (tried.has(verdict.version)) {
            throw new UpstreamConnectError(
              `it refused protocol version ${verdict.version} while naming it as supported`,
            );
          }
          version = verdict.version;
          continue;
        case 'legacy':
          return this.#initialize(verdict.reason);
        case 'error':
          throw new UpstreamConnectError(verdict.message, verdict.legacyNextTime);
      }
    }
  }

  async #probe(version: string, timeLimitMs: number | undefined): Promise<ProbeOutcome> {
    const timeLimit = timeLimitMs === undefined ? undefined : AbortSignal.timeout(timeLimitMs);
    try {
      const envelope = {
        protocolVersion: version,
        clientInfo: this.#clientInfo,
        clientCapabilities: this.#capabilities,
      };
      const result = await this.#exchange('server/discover', withModernEnvelope({}, envelope), {
        signal: timeLimit,
        silentAbort: true,
      });
      return { kind: 'result', result };
    } catch (error) {
      return probeOutcomeOf(error, timeLimit?.aborted === true, timeLimitMs ?? 0);
    }
  }

  async #initialize(legacyBecause: string): Promise<UpstreamIdentity> {
    const result = (await this.#exchange('initialize', {
      protocolVersion: latestLegacyProtocolVersion,
      capabilities: this.#capabilities,
      clientInfo: this.#clientInfo,
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
      era: 'legacy',
      protocolVersion: result.protocolVersion,
      serverInfo: result.serverInfo,
      capabilities: result.capabilities ?? {},
      instructions: result.instructions,
      legacyBecause,
    };
    return this.identity;
  }

  /**
   * Sends one request in the connection's era and resolves with its
   * complete result. In the modern era it carries the per-request `_meta`,
   * and an input_required answer is put to `onServerRequest` and retried
   * with the answers until the result is complete.
   */
  request(method: string, params: Record<string, unknown>, options: UpstreamRequestOptions = {}): Promise<unknown> {
    const identity = this.identity;
    if (identity?.era !== 'modern') return this.#exchange(method, params, options);
    const capabilities = options.clientCapabilities ?? this.#capabilities;
    const envelope = {
      protocolVersion: identity.protocolVersion,
      clientInfo: this.#clientInfo,
      // A call may become a task upstream: the host follows it to its end, for every caller.
      clientCapabilities: method === 'tools/call' ? withTasksDeclared(capabilities) : capabilities,
    };
    const { signal } = options;
    return runInputRounds(
      method,
      (retry) => this.#exchange(method, withModernEnvelope({ ...params, ...retry }, envelope), options),
      options.onServerRequest,
      signal,
      (created) =>
        followUpstreamTask(created, {
          // Each with the request's envelope; a cancel is sent even after the call's signal has aborted.
          request: (taskMethod, taskParams) =>
            this.#exchange(
              taskMethod,
              withModernEnvelope(taskParams, envelope),
              taskMethod === 'tasks/cancel' ? {} : { signal },
            ),
          answer: options.onServerRequest,
          signal,
          onProgress: options.onProgress,
        }),
    );
  }

  /** One JSON-RPC request and its answer. */
  #exchange(method: string, params: Record<string, unknown>, options: ExchangeOptions = {}): Promise<unknown> {
    if (this.#closed) return Promise.reject(new UpstreamClosedError('The upstream connection is closed'));
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
        if (options.silentAbort !== true) this.#cancel(id);
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
      const message = { jsonrpc: '2.0', id, method, params: sent } as JsonRpcPayload;
      const authInfo = options.authInfo;
      this.#transport.send(message, authInfo === undefined ? undefined : { authInfo }).catch((error: unknown) => {
        this.#pending.get(id)?.reject(error);
        this.#pending.delete(id);
      });
    });
  }

  /**
   * Tells the server to stop work on a request: a modern HTTP server by
   * closing the request's response stream (it expects no notification), any
   * other with notifications/cancelled.
   */
  #cancel(id: JsonRpcId): void {
    const transport = this.#transport as Transport & { abortRequest?: (id: JsonRpcId) => void };
    if (this.identity?.era === 'modern' && transport.abortRequest !== undefined) {
      transport.abortRequest(id);
      return;
    }
    transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'cancelled by the caller' },
      })
      .catch(() => {});
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
      pending.reject(new UpstreamClosedError('The upstream connection closed before it answered'));
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
    if (message.method === 'notifications/progress') {
      const pending = this.#pending.get(params.progressToken as JsonRpcId);
      pending?.options.onProgress?.({
        progress: params.progress as number,
        total: params.total as number | undefined,
        message: params.message as string | undefined,
      });
      return;
    }
    // A subscription's notifications name it on stdio; on HTTP they come on its stream.
    const subscription = (params._meta as Record<string, unknown> | undefined)?.[MetaKey.subscriptionId];
    const relatedId = extra?.relatedRequestId ?? (subscription as JsonRpcId | undefined);
    const related = relatedId === undefined ? undefined : this.#pending.get(relatedId);
    if (related?.options.onNotification !== undefined) {
      related.options.onNotification(message.method, params);
      return;
    }
    switch (message.method) {
      case 'notifications/tools/list_changed':
        this.onToolsChanged?.();
        return;
      case 'notifications/prompts/list_changed':
        this.onListChanged?.('prompts');
        return;
      case 'notifications/resources/list_changed':
        this.onListChanged?.('resources');
        return;
      case 'notifications/resources/updated':
        if (typeof params.uri === 'string') this.onResourceUpdated?.(params.uri);
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
    const handlers = [...this.#pending.values()]
      .map((pending) => pending.options.onServerRequest)
      .filter((handler) => handler !== undefined);
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
