import type { AuthInfo } from '../../engine/call-context.ts';
import type { JsonRpcRequest } from '../../messages/jsonrpc-message.ts';
import type { HttpAuthOptions } from './auth/http-auth-options.ts';

export interface HttpServeOptions {
  /** Address to bind. Default 127.0.0.1: nothing off this machine can connect. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** The MCP endpoint's path. Default /mcp. */
  path?: string;
  /**
   * `stateful` (default): Mcp-Session-Id sessions with server-to-client
   * requests, the GET stream and resumption. `stateless`: every POST stands
   * alone; no GET stream and no questions to the client.
   */
  sessions?: 'stateful' | 'stateless';
  /**
   * How requests are answered when the client accepts both: `auto` (default)
   * answers with a JSON body unless something must reach the client first —
   * progress, a log message, a question to the client, or a call quiet for a
   * whole keep-alive interval — and then switches that response to SSE;
   * `sse` and `json` force one. A client that accepts only one gets that one.
   * One SSE event carries one whole message, and some clients refuse events
   * over 1 MiB (the Python SDK), so a large answer after streamed messages
   * can be too big for them; under `auto` an answer with nothing before it
   * is a JSON body of any size.
   */
  responseMode?: 'auto' | 'sse' | 'json';
  /** Offer the GET stream for server-initiated messages. Default true; false answers GET with 405. */
  standaloneStream?: boolean;
  /** Host header names accepted. Default: loopback names when bound to loopback; any otherwise. */
  allowedHosts?: readonly string[];
  /** Browser origins accepted. Default: any loopback origin when bound to loopback; none otherwise. */
  allowedOrigins?: readonly string[];
  /** POST body cap in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Starts every 2025-era session id, so a load balancer can send a session's
   * requests to the replica that holds it (letters, digits, `-`, `_`, `.`; up
   * to 32). 2026-era requests need no affinity. Default: none.
   */
  sessionIdPrefix?: string;
  /** Live sessions at most; initialize beyond it gets 503. Default 1000. */
  maxSessions?: number;
  /** A session with no request and no open stream for this long ends. Default 30 minutes. */
  sessionIdleMs?: number;
  /** `retry:` advice to clients in priming events. Default 2000 ms. */
  sseRetryMs?: number;
  /** Events kept per stream for resumption. Default 1000. */
  eventsPerStream?: number;
  /** Comment lines on quiet SSE streams, against proxies that cut idle connections. Default 25 s. */
  keepAliveMs?: number;
  /** Time allowed to send request headers; against slow-loris clients. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time allowed to send a whole request body. Default 30 s. */
  requestTimeoutMs?: number;
  /** On close, how long in-flight calls may finish before connections are cut. Default 10 s. */
  shutdownGraceMs?: number;
  /** Resource-server auth. Off by default, which is allowed on loopback only. */
  auth?: HttpAuthOptions;
  /** Serve without auth on a non-loopback address. Anyone who can reach the port can call every tool. */
  allowInsecureNoAuth?: boolean;
  /**
   * Whether the server can serve calls now, for `GET /readyz` (200, or 503
   * with the reason): a load balancer sends traffic elsewhere meanwhile.
   * `GET /healthz` answers 200 while the process serves at all. Default: ready.
   */
  readiness?: () => Promise<Readiness>;
  /**
   * 2026 era: where a request is to be answered instead of here, for a
   * replica that holds what it needs (a call parked between its caller's
   * retries, say). Resolve that replica's endpoint URL and the request is
   * relayed to it as it came — body, MCP headers and the caller's
   * `Authorization` — and its answer passed back; resolve undefined to
   * answer here. A request that was already relayed is never relayed again.
   */
  relay?: (request: JsonRpcRequest, auth: AuthInfo | undefined) => Promise<string | undefined>;
}

/** What `/readyz` answers. */
export type Readiness = { ready: true } | { ready: false; reason: string };

export interface ResolvedHttpOptions {
  host: string;
  port: number;
  path: string;
  stateless: boolean;
  responseMode: 'auto' | 'sse' | 'json';
  standaloneStream: boolean;
  maxBodyBytes: number;
  maxSessions: number;
  sessionIdPrefix: string;
  sessionIdleMs: number;
  sseRetryMs: number;
  eventsPerStream: number;
  keepAliveMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
}

export function resolveHttpOptions(options: HttpServeOptions): ResolvedHttpOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    path: options.path ?? '/mcp',
    stateless: options.sessions === 'stateless',
    responseMode: options.responseMode ?? 'auto',
    standaloneStream: options.standaloneStream ?? true,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxSessions: options.maxSessions ?? 1000,
    sessionIdPrefix: options.sessionIdPrefix ?? '',
    sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
    sseRetryMs: options.sseRetryMs ?? 2000,
    eventsPerStream: options.eventsPerStream ?? 1000,
    keepAliveMs: options.keepAliveMs ?? 25_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
  };
}
