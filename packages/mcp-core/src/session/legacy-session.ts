import type { AuthInfo, CallContext } from '../engine/call-context.ts';
import { handleEngineRequest } from '../engine/handle-engine-request.ts';
import { createProgressReporter } from '../engine/progress-reporter.ts';
import type { RequestStop } from '../engine/request-stop.ts';
import type { RequestFacts } from '../engine/request-telemetry.ts';
import { RequestsInFlight } from '../engine/requests-in-flight.ts';
import type { ServerCore, ServerEvent } from '../engine/server-core.ts';
import { LocalError } from '../errors/local-error.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { isLogLevel, type LogLevel, logLevels, passesLogLevel } from '../logging/log-level.ts';
import { redactSecrets } from '../logging/redact-secrets.ts';
import { classifyMessage } from '../messages/classify-message.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type {
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../messages/jsonrpc-message.ts';
import type { ClientCapabilities, Implementation } from '../protocol/mcp-types.ts';
import { allowsBatches, negotiateLegacyVersion } from '../protocol/protocol-version.ts';
import { requireUri, resolveResource, resourceNotFound } from '../resources/resource-requests.ts';
import { CallCancelled } from '../tools/call-tool.ts';
import type { Transport } from '../transports/transport.ts';
import { type ClientState, RootsCache } from './client-features.ts';
import { OutgoingRequests } from './outgoing-requests.ts';
import { RequestContext, type SessionServices } from './request-context.ts';

type Phase = 'awaiting-initialize' | 'initializing' | 'ready' | 'closed';

function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** For a server that keeps no sessions (stateless HTTP): each exchange starts as if initialize had run. */
export interface AssumedInitialize {
  protocolVersion: string;
}

/**
 * One 2025-era connection: runs initialize/initialized, remembers the
 * negotiated version, capabilities and log level, tracks in-flight requests
 * for cancellation, and fills each request's context from that state.
 */
export class LegacySession {
  readonly #core: ServerCore;
  readonly #transport: Transport;
  readonly #inFlight = new RequestsInFlight();
  readonly #outgoing: OutgoingRequests;
  readonly #roots = new RootsCache();
  readonly #subscriptions = new Set<string>();
  readonly #unsubscribe: () => void;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #phase: Phase = 'awaiting-initialize';
  #protocolVersion: string | undefined;
  #clientCapabilities: ClientCapabilities = {};
  #clientInfo: Implementation | undefined;
  #logLevel: LogLevel = 'info';
  readonly #listChangesQueued = new Set<string>();
  readonly #services: SessionServices;
  /** Fixed once initialize has run; shared by every request context. */
  #clientState: ClientState | undefined;
  /** When initialize ran here, for the session duration; stateless requests assume one and have none. */
  #initializedAt: number | undefined;

  constructor(core: ServerCore, transport: Transport, assumed?: AssumedInitialize) {
    this.#core = core;
    this.#transport = transport;
    this.#outgoing = new OutgoingRequests((message, relatedRequestId) => this.#sendOrThrow(message, relatedRequestId));
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
    if (assumed !== undefined) {
      this.#protocolVersion = negotiateLegacyVersion(assumed.protocolVersion);
      this.#phase = 'ready';
    }
    const session = this;
    this.#services = {
      outgoing: this.#outgoing,
      roots: this.#roots,
      policy: core.elicitationUnavailable,
      get clientInfo() {
        return session.#clientInfo;
      },
      log: (level, data, logger, requestId) => this.#log(level, data, logger, requestId),
      closeStream: (requestId) => this.#transport.closeStream?.(requestId),
    };
    this.#unsubscribe = core.subscribe((event) => this.#onServerEvent(event));
    transport.onmessage = (message, extra) => {
      this.#receive(message, extra?.authInfo);
    };
    transport.onclose = () => this.#shutDown();
    transport.onerror = (error) => core.report(error, 'transport');
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Resolves when the connection has closed, from either side. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  async start(): Promise<void> {
    await this.#transport.start();
  }

  async close(): Promise<void> {
    this.#shutDown();
    await this.#transport.close();
  }

  #shutDown(): void {
    if (this.#phase === 'closed') return;
    if (this.#core.telemetry !== undefined && this.#initializedAt !== undefined) {
      this.#core.telemetry.sessionEnded(this.#requestFacts(), (performance.now() - this.#initializedAt) / 1000);
    }
    this.#phase = 'closed';
    this.#unsubscribe();
    this.#inFlight.abortAll();
    this.#outgoing.close();
    this.#markClosed();
  }

  /** Sends, reporting failures: for messages nobody waits on. */
  #send(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: JsonRpcId): Promise<void> {
    // After close there is nobody to tell, and nothing the server did wrong.
    if (this.#phase === 'closed') return Promise.resolve();
    return this.#sendOrThrow(message, relatedRequestId).catch((error: unknown) => this.#core.report(error, 'send'));
  }

  #sendOrThrow(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: JsonRpcId): Promise<void> {
    if (this.#phase === 'closed') return Promise.reject(new LocalError('connection_closed', 'Connection closed'));
    return relatedRequestId === undefined
      ? this.#transport.send(message)
      : this.#transport.send(message, { relatedRequestId });
  }

  // Not async, nor is #handleMessage: a request is answered through the one promise its handling makes, and a
  // notification or a response to this server's own request is taken at once, with no promise made for it.
  #receive(value: unknown, auth: AuthInfo | undefined): void {
    if (Array.isArray(value)) {
      void this.#receiveBatch(value, auth);
      return;
    }
    const response = this.#handleMessage(value, auth);
    if (response instanceof Promise) void response.then((answer) => this.#answer(answer));
    else this.#answer(response);
  }

  #answer(response: JsonRpcResponse | undefined): void {
    if (response !== undefined) void this.#send(response, response.id ?? undefined);
  }

  async #receiveBatch(values: unknown[], auth: AuthInfo | undefined): Promise<void> {
    if (!allowsBatches(this.#protocolVersion)) {
      const why =
        this.#protocolVersion === undefined
          ? 'before initialize'
          : `in protocol version ${this.#protocolVersion} (only 2025-03-26 has them)`;
      await this.#send(
        errorResponse(null, JsonRpcErrorCode.InvalidRequest, `Invalid request: batches are not accepted ${why}`),
      );
      return;
    }
    if (values.length === 0) {
      await this.#send(errorResponse(null, JsonRpcErrorCode.InvalidRequest, 'Invalid request: empty batch'));
      return;
    }
    const responses = await Promise.all(values.map((value) => this.#handleMessage(value, auth, true)));
    const answered = responses.filter((response) => response !== undefined);
    if (answered.length > 0) await this.#send(answered, answered[0]?.id ?? undefined);
  }

  #handleMessage(
    value: unknown,
    auth: AuthInfo | undefined,
    inBatch = false,
  ): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'invalid':
        return { jsonrpc: '2.0', id: classified.id, error: classified.error };
      case 'response':
        this.#outgoing.settle(classified.message);
        return undefined;
      case 'notification':
        this.#handleNotification(classified.message);
        return undefined;
      case 'request':
        if (inBatch && classified.message.method === 'initialize') {
          return errorResponse(
            classified.message.id,
            JsonRpcErrorCode.InvalidRequest,
            'Invalid request: initialize cannot be part of a batch',
          );
        }
        return this.#core.telemetry === undefined
          ? this.#handleRequest(classified.message, auth)
          : this.#core.telemetry.serve(
              classified.message,
              () => this.#requestFacts(),
              () => this.#handleRequest(classified.message, auth),
            );
    }
  }

  #requestFacts(): RequestFacts {
    return {
      protocolVersion: this.#protocolVersion,
      sessionId: this.#transport.sessionId,
      networkTransport: this.#transport.networkTransport,
    };
  }

  #handleNotification(notification: JsonRpcNotification): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/initialized':
        if (this.#phase === 'initializing') this.#phase = 'ready';
        return;
      case 'notifications/cancelled':
        this.#inFlight.cancel(params);
        return;
      case 'notifications/roots/list_changed':
        this.#roots.invalidate();
        return;
      default:
        return; // Unknown notifications are ignored, as JSON-RPC requires.
    }
  }

  #handleRequest(
    request: JsonRpcRequest,
    auth: AuthInfo | undefined,
  ): JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined> {
    const { id, method } = request;
    const params = request.params ?? {};
    if (method === 'initialize') return this.#initialize(id, params);
    if (method !== 'ping' && this.#phase === 'awaiting-initialize') {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidRequest,
        `Server not initialized: send initialize before ${method.slice(0, 100)}`,
      );
    }
    if (method === 'logging/setLevel') return this.#setLogLevel(id, params);

    const stop = this.#inFlight.start(id);
    if (stop === undefined) {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid request: this id is already in use by a request in progress',
      );
    }
    const meta = isPlainObject(params._meta) ? params._meta : {};
    const token = meta.progressToken;
    const progress = createProgressReporter(
      typeof token === 'string' || Number.isSafeInteger(token) ? (token as string | number) : undefined,
      (notification) => void this.#send(notification, id),
    );
    const finish = () => {
      progress.finish();
      this.#inFlight.finish(id, stop);
    };
    let result: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      const context = this.#createContext(id, stop, progress.report, auth);
      result =
        method === 'resources/subscribe' || method === 'resources/unsubscribe'
          ? this.#setSubscription(method, params)
          : handleEngineRequest(this.#core, method, params, context);
    } catch (error) {
      finish();
      return this.#failed(id, method, stop, error);
    }
    // What the engine answers at once is answered at once: no promise, nothing of the request left for the next.
    if (!(result instanceof Promise)) {
      finish();
      return stop.aborted ? undefined : { jsonrpc: '2.0', id, result };
    }
    return result.then(
      (settled): JsonRpcResponse | undefined => {
        finish();
        return stop.aborted ? undefined : { jsonrpc: '2.0', id, result: settled };
      },
      (error: unknown) => {
        finish();
        return this.#failed(id, method, stop, error);
      },
    );
  }

  /** The answer to a request whose handling threw: nothing once it was stopped, else the error it names. */
  #failed(id: JsonRpcId, method: string, stop: RequestStop, error: unknown): JsonRpcResponse | undefined {
    if (stop.aborted || error instanceof CallCancelled) return undefined;
    if (ProtocolError.isInstance(error)) return errorResponse(id, error.code, error.message, error.data);
    this.#core.report(error, `request ${method.slice(0, 100)}`);
    return errorResponse(id, JsonRpcErrorCode.InternalError, 'Internal error');
  }

  #initialize(id: JsonRpcId, params: JsonRpcParams): JsonRpcResponse {
    if (this.#phase !== 'awaiting-initialize') {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid request: initialize was already received on this connection',
      );
    }
    const { protocolVersion, capabilities, clientInfo } = params;
    if (typeof protocolVersion !== 'string') {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidParams,
        'initialize needs params.protocolVersion, a string such as "2025-11-25"',
      );
    }
    if (capabilities !== undefined && !isPlainObject(capabilities)) {
      return errorResponse(id, JsonRpcErrorCode.InvalidParams, 'initialize params.capabilities must be an object');
    }
    if (clientInfo !== undefined && !(isPlainObject(clientInfo) && typeof clientInfo.name === 'string')) {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidParams,
        'initialize params.clientInfo must be an object with a name',
      );
    }
    this.#protocolVersion = negotiateLegacyVersion(protocolVersion);
    this.#clientCapabilities = (capabilities as ClientCapabilities | undefined) ?? {};
    this.#clientInfo = clientInfo as Implementation | undefined;
    this.#clientState = undefined;
    this.#phase = 'initializing';
    this.#initializedAt = performance.now();
    const result: Record<string, unknown> = {
      protocolVersion: this.#protocolVersion,
      capabilities: this.#core.capabilities(),
      serverInfo: this.#serverInfoFor(this.#protocolVersion),
    };
    if (this.#core.instructions !== undefined) result.instructions = this.#core.instructions;
    return { jsonrpc: '2.0', id, result };
  }

  /** Older revisions know fewer fields of Implementation; send only what the negotiated one defines. */
  #serverInfoFor(protocolVersion: string): Implementation {
    const { name, version, title, description, websiteUrl, icons } = this.#core.info;
    const info: Implementation = { name, version };
    if (protocolVersion >= '2025-06-18' && title !== undefined) info.title = title;
    if (protocolVersion >= '2025-11-25') {
      if (description !== undefined) info.description = description;
      if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
      if (icons !== undefined) info.icons = icons;
    }
    return info;
  }

  #setLogLevel(id: JsonRpcId, params: JsonRpcParams): JsonRpcResponse {
    if (!isLogLevel(params.level)) {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidParams,
        `logging/setLevel params.level must be one of: ${logLevels.join(', ')}`,
      );
    }
    this.#logLevel = params.level;
    return { jsonrpc: '2.0', id, result: {} };
  }

  #createContext(
    requestId: JsonRpcId,
    stop: RequestStop,
    progress: CallContext['progress'],
    auth: AuthInfo | undefined,
  ): CallContext {
    this.#clientState ??= { capabilities: this.#clientCapabilities, protocolVersion: this.#protocolVersion ?? '' };
    return new RequestContext(this.#services, this.#clientState, requestId, stop, progress, auth);
  }

  #setSubscription(method: string, params: JsonRpcParams): Record<string, unknown> {
    if (this.#core.capabilities().resources?.subscribe !== true) {
      throw new ProtocolError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const uri = requireUri(params, method);
    if (method === 'resources/unsubscribe') {
      this.#subscriptions.delete(uri);
      return {};
    }
    if (resolveResource(this.#core, uri) === undefined) throw resourceNotFound(uri);
    // Bounded: a client cannot grow the set without limit.
    if (this.#subscriptions.size >= 10_000 && !this.#subscriptions.has(uri)) {
      throw new ProtocolError(JsonRpcErrorCode.InvalidRequest, 'Too many subscriptions on this connection (10000)');
    }
    this.#subscriptions.add(uri);
    return {};
  }

  #log(level: LogLevel, data: unknown, logger: string | undefined, requestId?: JsonRpcId): void {
    if (this.#phase === 'closed' || this.#phase === 'awaiting-initialize') return;
    if (!passesLogLevel(level, this.#logLevel)) return;
    const params: Record<string, unknown> = { level, data: redactSecrets(data) };
    if (logger !== undefined) params.logger = logger;
    void this.#send({ jsonrpc: '2.0', method: 'notifications/message', params }, requestId);
  }

  #onServerEvent(event: ServerEvent): void {
    if (event.type === 'resource_updated') {
      if (this.#phase !== 'ready' || !this.#subscriptions.has(event.uri)) return;
      void this.#send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: event.uri } });
      return;
    }
    const method = `notifications/${event.list}/list_changed`;
    if (this.#listChangesQueued.has(method)) return;
    this.#listChangesQueued.add(method);
    // Coalesce a burst of registrations into one notification per list.
    queueMicrotask(() => {
      this.#listChangesQueued.delete(method);
      if (this.#phase !== 'ready') return;
      const capability = this.#core.capabilities()[event.list] as { listChanged?: boolean } | undefined;
      if (capability?.listChanged !== true) return;
      void this.#send({ jsonrpc: '2.0', method });
    });
  }
}
