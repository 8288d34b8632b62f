import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '../../engine/call-context.ts';
import { LocalError } from '../../errors/local-error.ts';
import { isPlainObject } from '../../messages/is-plain-object.ts';
import { declaresModernMeta } from '../../modern/request-meta.ts';
import { legacyProtocolVersions } from '../../protocol/protocol-version.ts';
import type { McpServer } from '../../server/create-mcp-server.ts';
import { type Authenticator, createAuthenticator } from './auth/authenticator.ts';
import { HttpErrorCode, writeJsonRpcError } from './http-error.ts';
import { type HttpServeOptions, type Readiness, resolveHttpOptions } from './http-options.ts';
import { answerPreflight, corsHeaders, headerValue } from './http-request-headers.ts';
import { LegacyHttpEndpoint } from './legacy-http-endpoint.ts';
import { type ModernStreams, serveModernPost } from './modern-http-exchange.ts';
import { checkOrigin, createOriginPolicy, isLoopbackAddress } from './origin-guard.ts';
import { readJsonBody } from './read-json-body.ts';

/** A running Streamable HTTP endpoint. */
export interface HttpServerHandle {
  /** The endpoint's URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly server: Server;
  /** Live 2025-era sessions (stateful mode). */
  readonly sessionCount: number;
  /** Stops accepting, lets in-flight calls finish within the grace period, then ends every session and stream. */
  close(): Promise<void>;
}

const legacyVersions = new Set(legacyProtocolVersions);
const sessionIdPrefixPattern = /^[A-Za-z0-9._-]{0,32}$/;

/**
 * Which era a POST speaks. A session id, a 2025 version header, or (with no
 * header) anything but a request carrying modern `_meta` is the 2025 era:
 * the first POST of a 2025 client is `initialize` without the header. Every
 * other POST is a stateless 2026-era request.
 */
function isLegacyPost(request: IncomingMessage, payload: unknown): boolean {
  if (headerValue(request, 'mcp-session-id') !== undefined) return true;
  const version = headerValue(request, 'mcp-protocol-version');
  if (version !== undefined) return legacyVersions.has(version);
  return !(isPlainObject(payload) && isPlainObject(payload.params) && declaresModernMeta(payload.params));
}

/**
 * Serves an MCP server over Streamable HTTP on node:http, in both protocol
 * eras on one endpoint, safe by default: bound to 127.0.0.1, Host and Origin
 * checked against DNS rebinding, bodies capped, malformed input answered with
 * JSON-RPC errors (never HTML), slow clients timed out, and auth required on
 * any address but loopback.
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
  if (!sessionIdPrefixPattern.test(config.sessionIdPrefix)) {
    throw new LocalError(
      'config_invalid',
      'sessionIdPrefix may hold letters, digits, ".", "-" and "_", at most 32 of them',
    );
  }
  const policy = createOriginPolicy(config.host, options.allowedHosts, options.allowedOrigins);
  const legacy = new LegacyHttpEndpoint(mcpServer, config);
  const modernStreams: ModernStreams = new Set();
  let inFlightModern = 0;
  const ending = new AbortController();
  let authenticator: Authenticator | undefined;
  let closing = false;

  // node:http is loaded when a server is served over HTTP, and not as an ES module: imported as one, it builds its
  // export facade by reading every export, lazy ones included — `WebSocket` among them, which loads Node's whole
  // bundled undici. That cost a stdio server about 100 ms of CPU at start (half of its start-up) for nothing.
  const { createServer } = process.getBuiltinModule('node:http');
  const server = createServer({
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    // How often Node enforces the two timeouts above; its default (30 s) would let short ones slip.
    connectionsCheckingInterval: Math.max(100, Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4),
    keepAliveTimeout: 5_000,
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`[mcp-core] HTTP handler failed: ${(error as Error).stack ?? String(error)}\n`);
      writeJsonRpcError(response, 500, -32603, 'Internal error');
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
      legacy.keepAlive();
      for (const stream of modernStreams) stream.keepAlive();
    }, config.keepAliveMs),
    setInterval(() => legacy.sweepIdle(), Math.min(config.sessionIdleMs / 4, 60_000)),
  ];
  for (const timer of timers) timer.unref();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    const refusal = checkOrigin(policy, request.headers.host, headerValue(request, 'origin'));
    if (refusal !== undefined) {
      writeJsonRpcError(response, 403, HttpErrorCode.Refused, `Forbidden: ${refusal} (DNS rebinding protection)`);
      return;
    }
    if (authenticator?.metadataPaths.includes(pathname)) {
      serveMetadata(request, response, authenticator);
      return;
    }
    // Probes carry no credentials, and answer nothing a caller could use: whether this replica serves.
    if ((pathname === '/healthz' || pathname === '/readyz') && pathname !== config.path) {
      await answerProbe(request, response, pathname === '/readyz' ? options.readiness : undefined);
      return;
    }
    if (pathname !== config.path) {
      writeJsonRpcError(response, 404, HttpErrorCode.Refused, `Not found: the MCP endpoint is ${config.path}`);
      return;
    }
    if (request.method === 'OPTIONS') {
      answerPreflight(request, response);
      return;
    }
    let auth: AuthInfo | undefined;
    if (authenticator !== undefined) {
      const outcome = await authenticator.authenticate(request, query === -1 ? '' : target.slice(query + 1));
      if (!outcome.ok) {
        writeJsonRpcError(response, outcome.status, HttpErrorCode.Refused, outcome.message, {
          'www-authenticate': outcome.wwwAuthenticate,
        });
        return;
      }
      auth = outcome.info;
    }
    if (closing) {
      writeJsonRpcError(response, 503, HttpErrorCode.Refused, 'Service unavailable: the server is shutting down', {
        connection: 'close',
      });
      return;
    }
    switch (request.method) {
      case 'POST':
        await handlePost(request, response, auth);
        return;
      case 'GET':
        legacy.get(request, response);
        return;
      case 'DELETE':
        await legacy.delete(request, response);
        return;
      default:
        writeJsonRpcError(response, 405, HttpErrorCode.Refused, 'Method not allowed: use POST, GET or DELETE', {
          allow: 'GET, POST, DELETE',
        });
    }
  }

  async function handlePost(request: IncomingMessage, response: ServerResponse, auth: AuthInfo | undefined) {
    const body = await readJsonBody(request, config.maxBodyBytes);
    if (!body.ok) {
      writeJsonRpcError(
        response,
        body.status,
        body.code,
        body.message,
        body.status === 413 ? { connection: 'close' } : {},
      );
      return;
    }
    if (isLegacyPost(request, body.value)) {
      await legacy.post(request, response, body.value, auth);
      return;
    }
    inFlightModern += 1;
    try {
      await serveModernPost(
        mcpServer,
        request,
        response,
        body.value,
        auth,
        corsHeaders(request),
        modernStreams,
        ending.signal,
        options.relay,
      );
    } finally {
      inFlightModern -= 1;
    }
  }

  function serveMetadata(request: IncomingMessage, response: ServerResponse, auth: Authenticator): void {
    if (request.method !== 'GET') {
      writeJsonRpcError(response, 405, HttpErrorCode.Refused, 'Method not allowed: use GET', { allow: 'GET' });
      return;
    }
    const body = JSON.stringify(auth.metadata);
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'max-age=3600',
      ...corsHeaders(request),
    });
    response.end(body);
  }

  return {
    url,
    server,
    get sessionCount() {
      return legacy.sessionCount;
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const timer of timers) clearInterval(timer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Open subscriptions never finish on their own: they end now, each with its closing result.
      ending.abort();
      const deadline = Date.now() + config.shutdownGraceMs;
      while (Date.now() < deadline && (legacy.busy || inFlightModern > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await legacy.closeAll();
      server.closeAllConnections();
      await stopped;
    },
  };
}

/** `/healthz` (alive) and `/readyz` (ready for calls), as JSON: 200, or 503 with the reason. */
async function answerProbe(
  request: IncomingMessage,
  response: ServerResponse,
  readiness: (() => Promise<Readiness>) | undefined,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' })
      .end('{"status":"method not allowed"}');
    return;
  }
  let state: Readiness = { ready: true };
  if (readiness !== undefined) {
    try {
      state = await readiness();
    } catch (error) {
      state = { ready: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  const body = JSON.stringify(state.ready ? { status: 'ok' } : { status: 'unavailable', reason: state.reason });
  response
    .writeHead(state.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(request.method === 'HEAD' ? undefined : body);
}
