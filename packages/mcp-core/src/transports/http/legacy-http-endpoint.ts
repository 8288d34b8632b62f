import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../engine/call-context.ts';
import { classifyMessage } from '../../messages/classify-message.ts';
import { JsonRpcErrorCode } from '../../messages/jsonrpc-error-code.ts';
import type { JsonRpcId } from '../../messages/jsonrpc-message.ts';
import { allowsBatches, legacyProtocolVersions, supportedProtocolVersions } from '../../protocol/protocol-version.ts';
import type { McpServer, ServerConnection } from '../../server/create-mcp-server.ts';
import { HttpErrorCode, writeJsonRpcError } from './http-error.ts';
import type { ResolvedHttpOptions } from './http-options.ts';
import { acceptsOf, corsHeaders, headerValue } from './http-request-headers.ts';
import { HttpSessionTransport, type ResponseMode } from './http-session-transport.ts';

interface Session {
  readonly id: string;
  readonly transport: HttpSessionTransport;
  readonly connection: ServerConnection;
  lastActive: number;
}

const legacyVersions = new Set(legacyProtocolVersions);
const sessionIdPattern = /^[\x21-\x7e]{1,128}$/;

/**
 * The 2025-era half of the endpoint: sessions begun by `initialize` and named
 * by `Mcp-Session-Id`, their POSTs, the GET stream with Last-Event-ID
 * resumption, and DELETE. Sessions are capped, swept when idle, and kept alive
 * through proxies.
 */
export class LegacyHttpEndpoint {
  readonly #server: McpServer;
  readonly #config: ResolvedHttpOptions;
  readonly #sessions = new Map<string, Session>();

  constructor(server: McpServer, config: ResolvedHttpOptions) {
    this.#server = server;
    this.#config = config;
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  get busy(): boolean {
    return [...this.#sessions.values()].some((session) => session.transport.pendingRequests > 0);
  }

  keepAlive(): void {
    for (const session of this.#sessions.values()) session.transport.keepAlive();
  }

  sweepIdle(): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      const busy = session.transport.pendingRequests > 0 || session.transport.openConnections > 0;
      if (busy) session.lastActive = now;
      else if (now - session.lastActive > this.#config.sessionIdleMs) void this.#end(session);
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => this.#end(session)));
  }

  async post(
    request: IncomingMessage,
    response: ServerResponse,
    payload: unknown,
    auth: AuthInfo | undefined,
  ): Promise<void> {
    const items = Array.isArray(payload) ? payload : [payload];
    if (items.length === 0) {
      writeJsonRpcError(response, 400, JsonRpcErrorCode.InvalidRequest, 'Invalid request: empty batch');
      return;
    }
    const requestIds: JsonRpcId[] = [];
    const methods: string[] = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'invalid') {
        writeJsonRpcError(response, 400, classified.error.code, classified.error.message, {}, classified.id);
        return;
      }
      if (classified.kind === 'request') {
        requestIds.push(classified.message.id);
        methods.push(classified.message.method);
      }
    }
    const isInitialize = methods.includes('initialize');
    if (isInitialize && items.length > 1) {
      writeJsonRpcError(
        response,
        400,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid request: initialize must be sent on its own',
      );
      return;
    }
    const mode = requestIds.length > 0 ? this.#chooseMode(request) : 'json';
    if (mode === undefined) {
      writeJsonRpcError(
        response,
        406,
        HttpErrorCode.Refused,
        'Not Acceptable: accept application/json or text/event-stream',
      );
      return;
    }
    const cors = corsHeaders(request);

    if (this.#config.stateless) {
      if (!isInitialize && !this.#checkVersionHeader(request, response, requestIds[0])) return;
      const version = headerValue(request, 'mcp-protocol-version') ?? '2025-03-26';
      if (!isInitialize && !this.#checkBatch(response, payload, version)) return;
      const transport = this.#newTransport(isInitialize ? undefined : version);
      const connection = await this.#server.connect(
        transport,
        isInitialize ? {} : { assumeInitialized: { protocolVersion: version } },
      );
      response.once('close', () => void connection.close());
      transport.acceptPost(response, payload, requestIds, mode, auth, cors);
      if (requestIds.length === 0) void connection.close();
      return;
    }

    if (isInitialize && headerValue(request, 'mcp-session-id') === undefined) {
      if (this.#sessions.size >= this.#config.maxSessions) {
        writeJsonRpcError(
          response,
          503,
          HttpErrorCode.Refused,
          `Service unavailable: the server holds its maximum of ${this.#config.maxSessions} sessions; retry later`,
          { 'retry-after': '30' },
        );
        return;
      }
      const transport = this.#newTransport();
      // node:crypto is loaded here, not imported, to keep it off the start-up path of stdio servers.
      const { randomUUID } = process.getBuiltinModule('node:crypto');
      const id = `${this.#config.sessionIdPrefix}${randomUUID()}`;
      transport.sessionId = id;
      const connection = await this.#server.connect(transport);
      const session: Session = { id, transport, connection, lastActive: Date.now() };
      this.#sessions.set(id, session);
      void connection.closed.then(() => this.#sessions.delete(id));
      // A refused initialize leaves no session behind to count against the cap.
      transport.oninitializefailed = () => setImmediate(() => void this.#end(session));
      transport.acceptPost(response, payload, requestIds, mode, auth, { ...cors, 'mcp-session-id': id });
      return;
    }
    if (!this.#checkVersionHeader(request, response, requestIds[0])) return;
    const session = this.#find(request, response);
    if (session === undefined) return;
    if (!this.#checkBatch(response, payload, session.transport.protocolVersion)) return;
    session.transport.acceptPost(response, payload, requestIds, mode, auth, cors);
  }

  get(request: IncomingMessage, response: ServerResponse): void {
    if (this.#config.stateless || !this.#config.standaloneStream) {
      writeJsonRpcError(response, 405, HttpErrorCode.Refused, 'Method not allowed: this server offers no GET stream', {
        allow: 'POST',
      });
      return;
    }
    if (!acceptsOf(request).sse) {
      writeJsonRpcError(
        response,
        406,
        HttpErrorCode.Refused,
        'Not Acceptable: a GET stream needs Accept: text/event-stream',
      );
      return;
    }
    if (!this.#checkVersionHeader(request, response)) return;
    const session = this.#find(request, response);
    if (session === undefined) return;
    const cors = corsHeaders(request);
    const lastEventId = headerValue(request, 'last-event-id');
    if (lastEventId !== undefined) {
      const outcome = session.transport.resume(response, lastEventId, cors);
      if (outcome === 'unknown') {
        writeJsonRpcError(
          response,
          400,
          HttpErrorCode.Refused,
          'Bad Request: Last-Event-ID names no stream this session still holds; its events may have expired',
        );
      } else if (outcome === 'busy') {
        writeJsonRpcError(
          response,
          409,
          HttpErrorCode.Refused,
          'Conflict: that stream is already open on another connection',
        );
      }
      return;
    }
    if (!session.transport.acceptStandalone(response, cors)) {
      writeJsonRpcError(response, 409, HttpErrorCode.Refused, 'Conflict: this session already has its GET stream open');
    }
  }

  async delete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.#config.stateless) {
      writeJsonRpcError(
        response,
        405,
        HttpErrorCode.Refused,
        'Method not allowed: stateless servers have no sessions',
        {
          allow: 'POST',
        },
      );
      return;
    }
    if (!this.#checkVersionHeader(request, response)) return;
    const session = this.#find(request, response);
    if (session === undefined) return;
    await this.#end(session);
    response.writeHead(200, corsHeaders(request)).end();
  }

  async #end(session: Session): Promise<void> {
    this.#sessions.delete(session.id);
    await session.connection.close();
  }

  /** A version this half does not speak is -32022 with every version the server does; missing means 2025-03-26. */
  #checkVersionHeader(request: IncomingMessage, response: ServerResponse, id?: JsonRpcId): boolean {
    const version = headerValue(request, 'mcp-protocol-version');
    if (version === undefined || legacyVersions.has(version)) return true;
    writeJsonRpcError(
      response,
      400,
      JsonRpcErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version ${JSON.stringify(version.slice(0, 40))} on a 2025-era session; supported here: ${legacyProtocolVersions.join(', ')}`,
      {},
      id ?? null,
      { supported: supportedProtocolVersions, requested: version },
    );
    return false;
  }

  /**
   * A batch in a version without batches is refused here, with a status: the
   * session's own refusal has no request id, so no stream would wait for it.
   */
  #checkBatch(response: ServerResponse, payload: unknown, version: string | undefined): boolean {
    if (!Array.isArray(payload) || allowsBatches(version)) return true;
    writeJsonRpcError(
      response,
      400,
      JsonRpcErrorCode.InvalidRequest,
      `Invalid request: batches are not accepted in protocol version ${version ?? 'unknown'} (only 2025-03-26 has them)`,
    );
    return false;
  }

  /** The session a request names: 400 when it names none, 404 when it names one that is gone. */
  #find(request: IncomingMessage, response: ServerResponse): Session | undefined {
    const id = headerValue(request, 'mcp-session-id');
    if (id === undefined) {
      writeJsonRpcError(
        response,
        400,
        HttpErrorCode.Refused,
        'Bad Request: Mcp-Session-Id header is required; send initialize first',
      );
      return undefined;
    }
    const session = sessionIdPattern.test(id) ? this.#sessions.get(id) : undefined;
    if (session === undefined) {
      writeJsonRpcError(
        response,
        404,
        HttpErrorCode.SessionNotFound,
        'Session not found: it ended or expired; initialize a new one',
      );
      return undefined;
    }
    session.lastActive = Date.now();
    return session;
  }

  /**
   * The spec lets the server pick per request when the client accepts both.
   * `auto` holds the answer as JSON until something must stream: one SSE
   * event is one message, and clients cap an event's size (the Python SDK at
   * 1 MiB), so a large answer travels best as a plain body.
   */
  #chooseMode(request: IncomingMessage): ResponseMode | undefined {
    const accepts = acceptsOf(request);
    if (!accepts.json && !accepts.sse) return undefined;
    if (!accepts.json) return 'sse';
    if (!accepts.sse) return 'json';
    if (this.#config.responseMode === 'auto') return 'either';
    return this.#config.responseMode;
  }

  #newTransport(protocolVersion?: string): HttpSessionTransport {
    return new HttpSessionTransport(
      { eventsPerStream: this.#config.eventsPerStream, retainedStreams: 100, retryMs: this.#config.sseRetryMs },
      protocolVersion,
    );
  }
}
