import { createElicitation } from '../engine/create-elicitation.ts';
import { handleEngineRequest } from '../engine/handle-engine-request.ts';
import type { ServerCore } from '../engine/server-core.ts';
import type { ElicitOutcome, ToolContext } from '../engine/tool-context.ts';
import { LocalError } from '../errors/local-error.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { isLogLevel, type LogLevel, logLevels, passesLogLevel } from '../logging/log-level.ts';
import { redactSecrets } from '../logging/redact-secrets.ts';
import { classifyMessage } from '../messages/classify-message.ts';
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
import { CallCancelled } from '../tools/call-tool.ts';
import type { Transport } from '../transports/transport.ts';
import { createProgressReporter } from './progress-reporter.ts';

type Phase = 'awaiting-initialize' | 'initializing' | 'ready' | 'closed';

interface PendingClientRequest {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** "1" and 1 are different request ids. */
function idKey(id: JsonRpcId): string {
  return typeof id === 'string' ? `s${id}` : `n${id}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formElicitationSupported(capabilities: ClientCapabilities, protocolVersion: string): boolean {
  const elicitation = capabilities.elicitation;
  if (!isObject(elicitation) || protocolVersion < '2025-06-18') return false;
  // An empty object predates modes and means form; otherwise form must be listed.
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/**
 * One 2025-era connection: runs initialize/initialized, remembers the
 * negotiated version, capabilities and log level, tracks in-flight requests
 * for cancellation, and fills each request's context from that state.
 */
export class LegacySession {
  readonly #core: ServerCore;
  readonly #transport: Transport;
  readonly #inFlight = new Map<string, AbortController>();
  readonly #pendingClientRequests = new Map<number, PendingClientRequest>();
  readonly #unsubscribe: () => void;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #phase: Phase = 'awaiting-initialize';
  #protocolVersion: string | undefined;
  #clientCapabilities: ClientCapabilities = {};
  #clientInfo: Implementation | undefined;
  #logLevel: LogLevel = 'info';
  #nextClientRequestId = 1;
  #toolsChangedQueued = false;

  constructor(core: ServerCore, transport: Transport) {
    this.#core = core;
    this.#transport = transport;
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
    this.#unsubscribe = core.onToolsChanged(() => this.#queueToolsChanged());
    transport.onmessage = (message) => {
      void this.#receive(message);
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
    this.#phase = 'closed';
    this.#unsubscribe();
    for (const controller of this.#inFlight.values())
      controller.abort(new LocalError('connection_closed', 'Connection closed'));
    this.#inFlight.clear();
    for (const pending of this.#pendingClientRequests.values()) {
      pending.reject(new LocalError('connection_closed', 'Connection closed before the client answered'));
    }
    this.#pendingClientRequests.clear();
    this.#markClosed();
  }

  #send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.#phase === 'closed') return Promise.resolve();
    return this.#transport.send(message).catch((error: unknown) => this.#core.report(error, 'send'));
  }

  async #receive(value: unknown): Promise<void> {
    if (Array.isArray(value)) {
      await this.#receiveBatch(value);
      return;
    }
    const response = await this.#handleMessage(value);
    if (response !== undefined) await this.#send(response);
  }

  async #receiveBatch(values: unknown[]): Promise<void> {
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
    const responses = await Promise.all(values.map((value) => this.#handleMessage(value, true)));
    const answered = responses.filter((response) => response !== undefined);
    if (answered.length > 0) await this.#send(answered);
  }

  async #handleMessage(value: unknown, inBatch = false): Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'invalid':
        return { jsonrpc: '2.0', id: classified.id, error: classified.error };
      case 'response':
        this.#settleClientRequest(classified.message);
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
        return this.#handleRequest(classified.message);
    }
  }

  #handleNotification(notification: JsonRpcNotification): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/initialized':
        if (this.#phase === 'initializing') this.#phase = 'ready';
        return;
      case 'notifications/cancelled': {
        // A cancellation that races the response finds nothing here, which is fine.
        const { requestId } = params;
        if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
        const controller = this.#inFlight.get(idKey(requestId));
        if (controller === undefined) return;
        this.#inFlight.delete(idKey(requestId));
        const reason = typeof params.reason === 'string' ? params.reason : 'Cancelled by the client';
        controller.abort(new LocalError('request_cancelled', reason));
        return;
      }
      default:
        return; // Unknown notifications are ignored, as JSON-RPC requires.
    }
  }

  async #handleRequest(request: JsonRpcRequest): Promise<JsonRpcResponse | undefined> {
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

    const key = idKey(id);
    if (this.#inFlight.has(key)) {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid request: this id is already in use by a request in progress',
      );
    }
    const controller = new AbortController();
    this.#inFlight.set(key, controller);
    const meta = isObject(params._meta) ? params._meta : {};
    const token = meta.progressToken;
    const progress = createProgressReporter(
      typeof token === 'string' || Number.isSafeInteger(token) ? (token as string | number) : undefined,
      (notification) => void this.#send(notification),
    );
    try {
      const context = this.#createContext(controller.signal, progress.report);
      const result = await handleEngineRequest(this.#core, method, params, context);
      if (controller.signal.aborted) return undefined;
      return { jsonrpc: '2.0', id, result };
    } catch (error) {
      if (controller.signal.aborted || error instanceof CallCancelled) return undefined;
      if (ProtocolError.isInstance(error)) return errorResponse(id, error.code, error.message, error.data);
      this.#core.report(error, `request ${method.slice(0, 100)}`);
      return errorResponse(id, JsonRpcErrorCode.InternalError, 'Internal error');
    } finally {
      progress.finish();
      if (this.#inFlight.get(key) === controller) this.#inFlight.delete(key);
    }
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
    if (capabilities !== undefined && !isObject(capabilities)) {
      return errorResponse(id, JsonRpcErrorCode.InvalidParams, 'initialize params.capabilities must be an object');
    }
    if (clientInfo !== undefined && !(isObject(clientInfo) && typeof clientInfo.name === 'string')) {
      return errorResponse(
        id,
        JsonRpcErrorCode.InvalidParams,
        'initialize params.clientInfo must be an object with a name',
      );
    }
    this.#protocolVersion = negotiateLegacyVersion(protocolVersion);
    this.#clientCapabilities = (capabilities as ClientCapabilities | undefined) ?? {};
    this.#clientInfo = clientInfo as Implementation | undefined;
    this.#phase = 'initializing';
    const result: Record<string, unknown> = {
      protocolVersion: this.#protocolVersion,
      capabilities: this.#core.capabilities,
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

  #createContext(signal: AbortSignal, progress: ToolContext['progress']): ToolContext {
    const protocolVersion = this.#protocolVersion ?? '';
    const capabilities = this.#clientCapabilities;
    const ask = (message: string, requestedSchema: Record<string, unknown>): Promise<ElicitOutcome<unknown>> =>
      this.#askUser(message, requestedSchema, signal);
    return {
      signal,
      protocolVersion,
      client: { info: this.#clientInfo, capabilities },
      progress,
      log: (level, data, logger) => this.#log(level, data, logger),
      ...createElicitation(ask, this.#core.elicitationUnavailable),
    };
  }

  #log(level: LogLevel, data: unknown, logger?: string): void {
    if (this.#phase === 'closed' || this.#phase === 'awaiting-initialize') return;
    if (!passesLogLevel(level, this.#logLevel)) return;
    const params: Record<string, unknown> = { level, data: redactSecrets(data) };
    if (logger !== undefined) params.logger = logger;
    void this.#send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  async #askUser(
    message: string,
    requestedSchema: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ElicitOutcome<unknown>> {
    if (!formElicitationSupported(this.#clientCapabilities, this.#protocolVersion ?? '')) {
      return { action: 'unavailable', reason: 'the client did not declare the elicitation capability' };
    }
    let result: Record<string, unknown>;
    try {
      result = await this.#requestClient('elicitation/create', { message, requestedSchema }, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (ProtocolError.isInstance(error)) {
        return { action: 'unavailable', reason: `the client refused to ask (${error.message.slice(0, 200)})` };
      }
      throw error;
    }
    const { action, content } = result;
    if (action === 'accept') return { action, content };
    if (action === 'decline' || action === 'cancel') return { action };
    return { action: 'unavailable', reason: 'the client answered the question with an unknown action' };
  }

  #requestClient(method: string, params: JsonRpcParams, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#phase === 'closed') return Promise.reject(new LocalError('connection_closed', 'Connection closed'));
    signal.throwIfAborted();
    const id = this.#nextClientRequestId++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#pendingClientRequests.delete(id);
        void this.#send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'The tool call was cancelled' },
        });
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pendingClientRequests.set(id, {
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      void this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  #settleClientRequest(response: JsonRpcResponse): void {
    if (typeof response.id !== 'number') return;
    const pending = this.#pendingClientRequests.get(response.id);
    if (pending === undefined) return;
    this.#pendingClientRequests.delete(response.id);
    if ('error' in response && isObject(response.error)) {
      const { code, message } = response.error;
      pending.reject(
        new ProtocolError(typeof code === 'number' ? code : JsonRpcErrorCode.InternalError, String(message)),
      );
    } else if ('result' in response && isObject(response.result)) {
      pending.resolve(response.result);
    } else {
      pending.reject(new ProtocolError(JsonRpcErrorCode.InvalidRequest, 'The client sent a malformed response'));
    }
  }

  #queueToolsChanged(): void {
    if (this.#toolsChangedQueued) return;
    this.#toolsChangedQueued = true;
    // Coalesce a burst of registrations into one notification.
    queueMicrotask(() => {
      this.#toolsChangedQueued = false;
      if (this.#phase !== 'ready') return;
      void this.#send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    });
  }
}
