import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '../../engine/tool-context.ts';
import { LocalError } from '../../errors/local-error.ts';
import { classifyMessage } from '../../messages/classify-message.ts';
import type { JsonRpcId } from '../../messages/jsonrpc-message.ts';
import { legacyProtocolVersions } from '../../protocol/protocol-version.ts';
import type { McpServer, ServerConnection } from '../../server/create-mcp-server.ts';
import { type Authenticator, createAuthenticator } from './auth/authenticator.ts';
import { HttpErrorCode, writeJsonRpcError } from './http-error.ts';
import { type HttpServeOptions, resolveHttpOptions } from './http-options.ts';
import { HttpSessionTransport, type ResponseMode } from './http-session-transport.ts';
import { checkOrigin, createOriginPolicy, isLoopbackAddress } from './origin-guard.ts';
import { readJsonBody } from './read-json-body.ts';

/** A running Streamable HTTP endpoint. */
export interface HttpServerHandle {
  /** The endpoint's URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly server: Server;
  /** Live sessions (stateful mode). */
  readonly sessionCount: number;
  /** Stops accepting, lets in-flight calls finish within the grace period, then ends every session. */
  close(): Promise<void>;
}

interface Session {
  readonly id: string;
  readonly transport: HttpSessionTransport;
  readonly connection: ServerConnection;
  lastActive: number;
}

const supportedVersions = new Set(legacyProtocolVersions);
const sessionIdPattern = /^[\x21-\x7e]{1,128}$/;

function acceptsOf(req: IncomingMessage): { json: boolean; sse: boolean; any: boolean } {
  const accept = (req.headers.accept ?? '').toLowerCase();
  const any = accept === '' || accept.includes('*/*') || accept.includes('application/*');
  return { json: accept.includes('application/json'), sse: accept.includes('text/event-stream'), any };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Serves an MCP server over Streamable HTTP on node:http, safe by default:
 * bound to 127.0.0.1, Host and Origin checked against DNS rebinding, bodies
 * capped, malformed input answered with JSON-RPC errors (never HTML), slow
 * clients timed out, and auth required on any address but loopback.
 *
 * @example
 * const http = await serveHttp(server, { port: 3000 });
 * console.error(`MCP endpoint: ${http.url}`);
 */
export async function serveHttp(mcpServer: McpServer, options: HttpServeOptions = {}): Promise<HttpServerHandle> {
  const config = resolveHttpOptions(options);
  if (options.auth === undefined && !isLoopbackAddress(config.host) && options.allowInsecureNoAuth !== true) {
    throw new LocalError(
      'config_invalid',
      `Refusing to serve ${config.host} without auth: anyone who can reach it could call every tool. Configure auth, bind 127.0.0.1, or pass the explicit insecure option.`,
    );
  }
  const policy = createOriginPolicy(config.host, options.allowedHosts, options.allowedOrigins);
  const sessions = new Map<string, Session>();
  let authenticator: Authenticator | undefined;
  let closing = false;

  const server = createServer({
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    // How often Node enforces the two timeouts above; its default (30 s) would let short ones slip.
    connectionsCheckingInterval: Math.max(100, Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4),
    keepAliveTimeout: 5_000,
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`[mcp-core] HTTP handler failed: ${(error as Error).stack ?? String(error)}\n`);
      writeJsonRpcError(res, 500, -32603, 'Internal error');
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}${config.path}`;
  try {
    if (options.auth !== undefined) authenticator = createAuthenticator(options.auth, options.auth.resource ?? url);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }

  const timers = [
    setInterval(() => {
      for (const session of sessions.values()) session.transport.keepAlive();
    }, config.keepAliveMs),
    setInterval(sweepIdle, Math.min(config.sessionIdleMs / 4, 60_000)),
  ];
  for (const timer of timers) timer.unref();

  function sweepIdle(): void {
    const now = Date.now();
    for (const session of sessions.values()) {
      const busy = session.transport.pendingRequests > 0 || session.transport.openConnections > 0;
      if (busy) session.lastActive = now;
      else if (now - session.lastActive > config.sessionIdleMs) void endSession(session);
    }
  }

  async function endSession(session: Session): Promise<void> {
    sessions.delete(session.id);
    await session.connection.close();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    const refusal = checkOrigin(policy, req.headers.host, headerValue(req, 'origin'));
    if (refusal !== undefined) {
      writeJsonRpcError(res, 403, HttpErrorCode.Refused, `Forbidden: ${refusal} (DNS rebinding protection)`);
      return;
    }
    if (authenticator?.metadataPaths.includes(pathname)) {
      serveMetadata(req, res, authenticator);
      return;
    }
    if (pathname !== config.path) {
      writeJsonRpcError(res, 404, HttpErrorCode.Refused, `Not found: the MCP endpoint is ${config.path}`);
      return;
    }
    if (req.method === 'OPTIONS') {
      answerPreflight(req, res);
      return;
    }
    let auth: AuthInfo | undefined;
    if (authenticator !== undefined) {
      const outcome = await authenticator.authenticate(req, query === -1 ? '' : target.slice(query + 1));
      if (!outcome.ok) {
        writeJsonRpcError(res, outcome.status, HttpErrorCode.Refused, outcome.message, {
          'www-authenticate': outcome.wwwAuthenticate,
        });
        return;
      }
      auth = outcome.info;
    }
    if (closing) {
      writeJsonRpcError(res, 503, HttpErrorCode.Refused, 'Service unavailable: the server is shutting down', {
        connection: 'close',
      });
      return;
    }
    switch (req.method) {
      case 'POST':
        await handlePost(req, res, auth);
        return;
      case 'GET':
        handleGet(req, res);
        return;
      case 'DELETE':
        await handleDelete(req, res);
        return;
      default:
        writeJsonRpcError(res, 405, HttpErrorCode.Refused, 'Method not allowed: use POST, GET or DELETE', {
          allow: 'GET, POST, DELETE',
        });
    }
  }

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = headerValue(req, 'origin');
    if (origin === undefined) return {};
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'mcp-session-id', vary: 'origin' };
  }

  function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(204, {
      ...corsHeaders(req),
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers':
        'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
      'access-control-max-age': '600',
    });
    res.end();
  }

  function serveMetadata(req: IncomingMessage, res: ServerResponse, auth: Authenticator): void {
    if (req.method !== 'GET') {
      writeJsonRpcError(res, 405, HttpErrorCode.Refused, 'Method not allowed: use GET', { allow: 'GET' });
      return;
    }
    const body = JSON.stringify(auth.metadata);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'max-age=3600',
      ...corsHeaders(req),
    });
    res.end(body);
  }

  /** Says what is wrong with the MCP-Protocol-Version header, if anything; missing means 2025-03-26. */
  function checkVersionHeader(req: IncomingMessage, res: ServerResponse): boolean {
    const version = headerValue(req, 'mcp-protocol-version');
    if (version === undefined || supportedVersions.has(version)) return true;
    writeJsonRpcError(
      res,
      400,
      HttpErrorCode.Refused,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))}; supported: ${legacyProtocolVersions.join(', ')}`,
    );
    return false;
  }

  /** The session a request names: 400 when it names none, 404 when it names one that is gone. */
  function findSession(req: IncomingMessage, res: ServerResponse): Session | undefined {
    const id = headerValue(req, 'mcp-session-id');
    if (id === undefined) {
      writeJsonRpcError(
        res,
        400,
        HttpErrorCode.Refused,
        'Bad Request: Mcp-Session-Id header is required; send initialize first',
      );
      return undefined;
    }
    const session = sessionIdPattern.test(id) ? sessions.get(id) : undefined;
    if (session === undefined) {
      writeJsonRpcError(
        res,
        404,
        HttpErrorCode.SessionNotFound,
        'Session not found: it ended or expired; initialize a new one',
      );
      return undefined;
    }
    session.lastActive = Date.now();
    return session;
  }

  function chooseMode(req: IncomingMessage, methods: readonly string[]): ResponseMode | undefined {
    const accepts = acceptsOf(req);
    const json = accepts.json || accepts.any;
    if (!json && !accepts.sse) return undefined;
    if (!json) return 'sse';
    if (!accepts.sse) return 'json';
    if (config.responseMode === 'auto') return methods.includes('tools/call') ? 'sse' : 'json';
    return config.responseMode;
  }

  function newTransport(protocolVersion?: string): HttpSessionTransport {
    return new HttpSessionTransport(
      { eventsPerStream: config.eventsPerStream, retainedStreams: 100, retryMs: config.sseRetryMs },
      protocolVersion,
    );
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse, auth: AuthInfo | undefined): Promise<void> {
    const body = await readJsonBody(req, config.maxBodyBytes);
    if (!body.ok) {
      writeJsonRpcError(res, body.status, body.code, body.message, body.status === 413 ? { connection: 'close' } : {});
      return;
    }
    const payload = body.value;
    const items = Array.isArray(payload) ? payload : [payload];
    if (items.length === 0) {
      writeJsonRpcError(res, 400, -32600, 'Invalid request: empty batch');
      return;
    }
    const requestIds: JsonRpcId[] = [];
    const methods: string[] = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'invalid') {
        writeJsonRpcError(res, 400, classified.error.code, classified.error.message, {}, classified.id);
        return;
      }
      if (classified.kind === 'request') {
        requestIds.push(classified.message.id);
        methods.push(classified.message.method);
      }
    }
    const isInitialize = methods.includes('initialize');
    if (isInitialize && items.length > 1) {
      writeJsonRpcError(res, 400, -32600, 'Invalid request: initialize must be sent on its own');
      return;
    }
    const mode = requestIds.length > 0 ? chooseMode(req, methods) : 'json';
    if (mode === undefined) {
      writeJsonRpcError(
        res,
        406,
        HttpErrorCode.Refused,
        'Not Acceptable: accept application/json or text/event-stream',
      );
      return;
    }

    if (config.stateless) {
      if (!isInitialize && !checkVersionHeader(req, res)) return;
      const version = headerValue(req, 'mcp-protocol-version') ?? '2025-03-26';
      const transport = newTransport(isInitialize ? undefined : version);
      const connection = await mcpServer.connect(
        transport,
        isInitialize ? {} : { assumeInitialized: { protocolVersion: version } },
      );
      res.once('close', () => void connection.close());
      transport.acceptPost(res, payload, requestIds, mode, auth, corsHeaders(req));
      if (requestIds.length === 0) void connection.close();
      return;
    }

    if (isInitialize && headerValue(req, 'mcp-session-id') === undefined) {
      if (sessions.size >= config.maxSessions) {
        writeJsonRpcError(
          res,
          503,
          HttpErrorCode.Refused,
          `Service unavailable: the server holds its maximum of ${config.maxSessions} sessions; retry later`,
          { 'retry-after': '30' },
        );
        return;
      }
      const transport = newTransport();
      const id = randomUUID();
      const connection = await mcpServer.connect(transport);
      const session: Session = { id, transport, connection, lastActive: Date.now() };
      sessions.set(id, session);
      void connection.closed.then(() => sessions.delete(id));
      // A refused initialize leaves no session behind to count against the cap.
      transport.oninitializefailed = () => setImmediate(() => void endSession(session));
      transport.acceptPost(res, payload, requestIds, mode, auth, { ...corsHeaders(req), 'mcp-session-id': id });
      return;
    }
    if (!checkVersionHeader(req, res)) return;
    const session = findSession(req, res);
    if (session === undefined) return;
    session.transport.acceptPost(res, payload, requestIds, mode, auth, corsHeaders(req));
  }

  function handleGet(req: IncomingMessage, res: ServerResponse): void {
    if (config.stateless || !config.standaloneStream) {
      writeJsonRpcError(res, 405, HttpErrorCode.Refused, 'Method not allowed: this server offers no GET stream', {
        allow: 'POST',
      });
      return;
    }
    const accepts = acceptsOf(req);
    if (!accepts.sse) {
      writeJsonRpcError(
        res,
        406,
        HttpErrorCode.Refused,
        'Not Acceptable: a GET stream needs Accept: text/event-stream',
      );
      return;
    }
    if (!checkVersionHeader(req, res)) return;
    const session = findSession(req, res);
    if (session === undefined) return;
    const lastEventId = headerValue(req, 'last-event-id');
    if (lastEventId !== undefined) {
      const outcome = session.transport.resume(res, lastEventId, corsHeaders(req));
      if (outcome === 'unknown') {
        writeJsonRpcError(
          res,
          400,
          HttpErrorCode.Refused,
          'Bad Request: Last-Event-ID names no stream this session still holds; its events may have expired',
        );
      } else if (outcome === 'busy') {
        writeJsonRpcError(
          res,
          409,
          HttpErrorCode.Refused,
          'Conflict: that stream is already open on another connection',
        );
      }
      return;
    }
    if (!session.transport.acceptStandalone(res, corsHeaders(req))) {
      writeJsonRpcError(res, 409, HttpErrorCode.Refused, 'Conflict: this session already has its GET stream open');
    }
  }

  async function handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (config.stateless) {
      writeJsonRpcError(res, 405, HttpErrorCode.Refused, 'Method not allowed: stateless servers have no sessions', {
        allow: 'POST',
      });
      return;
    }
    if (!checkVersionHeader(req, res)) return;
    const session = findSession(req, res);
    if (session === undefined) return;
    await endSession(session);
    res.writeHead(200, corsHeaders(req)).end();
  }

  return {
    url,
    server,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const timer of timers) clearInterval(timer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + config.shutdownGraceMs;
      while (Date.now() < deadline && [...sessions.values()].some((s) => s.transport.pendingRequests > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all([...sessions.values()].map((session) => endSession(session)));
      server.closeAllConnections();
      await stopped;
    },
  };
}
