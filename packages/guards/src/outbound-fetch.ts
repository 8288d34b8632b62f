import type { Readable } from 'node:stream';
import { ToolError } from '@toolshed/mcp-core';
import type { Agent, Dispatcher } from 'undici';
import { createGuardedLookup } from './guarded-lookup.ts';
import { checkOutboundUrl } from './outbound-url.ts';

export interface OutboundFetchOptions {
  /** The largest body accepted, counted while it streams; a larger declared or sent body is refused. */
  maxBytes: number;
  /** The whole fetch — connection, every redirect and the body — must finish within this. */
  timeoutMs: number;
  /** Redirects followed, each one checked like the first URL. Default 3. */
  maxRedirects?: number | undefined;
  /** Default: `['http:', 'https:']`. */
  schemes?: readonly string[] | undefined;
  /** Ask these DNS servers (`IP` or `IP:PORT`) instead of the system resolver. */
  dnsServers?: readonly string[] | undefined;
  /** Hosts allowed to be on a private network (see {@link checkOutboundUrl}). */
  trustedHosts?: readonly string[] | undefined;
  /** Sent as `Accept`. Default `*\/*`. */
  accept?: string | undefined;
  /** Sent as `User-Agent`. */
  userAgent?: string | undefined;
}

export interface OutboundResponse {
  /** Where the body came from, after redirects. */
  url: URL;
  status: number;
  contentType: string | undefined;
  body: Buffer;
  redirects: number;
}

export interface OutboundFetcher {
  /** GETs a URL a model supplied; every failure is a {@link ToolError} that says what happened. */
  fetch(url: string | URL, options?: { signal?: AbortSignal }): Promise<OutboundResponse>;
  /** Closes kept-alive connections. */
  close(): Promise<void>;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Throws the body away without letting a late error escape. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(url: URL, maxBytes: number): ToolError {
  return new ToolError(`${url.href} is larger than ${maxBytes} bytes, the most this server fetches.`);
}

function networkError(url: URL, error: unknown): ToolError {
  let cause: unknown = error;
  // undici wraps the socket's error; the innermost one says what happened.
  while (cause instanceof Error && !(cause instanceof ToolError) && cause.cause instanceof Error) cause = cause.cause;
  if (cause instanceof ToolError) return cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ToolError(`${url.hostname} does not resolve.`);
  if (code === 'ECONNREFUSED') return new ToolError(`Could not connect to ${url.host}: the connection was refused.`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
    return new ToolError(`${url.host} closed the connection before the answer was complete.`);
  }
  const reason = code ?? (cause instanceof Error ? cause.message : String(cause));
  return new ToolError(`Could not fetch ${url.href}: ${reason}.`);
}

async function readCapped(body: Readable, url: URL, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A fetcher for URLs that come from a model: only the allowed schemes, no
 * credentials, no reserved address — checked on the first URL and again on
 * every redirect, and on every address a name resolves to (so DNS names
 * pointing at loopback, private networks or cloud metadata are refused
 * before a connection is made). Bodies are capped while they stream and the
 * whole fetch runs under one deadline. undici is loaded on first use: install
 * it next to this package when you use the fetcher.
 *
 * @example
 * const fetcher = createOutboundFetcher({ maxBytes: 20e6, timeoutMs: 15_000 });
 * const { body } = await fetcher.fetch('https://example.com/cat.jpg');
 */
export function createOutboundFetcher(options: OutboundFetchOptions): OutboundFetcher {
  const maxRedirects = options.maxRedirects ?? 3;
  const urlOptions = { schemes: options.schemes, trustedHosts: options.trustedHosts };
  let agent: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const dispatcher = () => {
    agent ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: {
          lookup: createGuardedLookup({ dnsServers: options.dnsServers, trustedHosts: options.trustedHosts }),
          timeout: Math.min(options.timeoutMs, 10_000),
        },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      }),
      request,
    }));
    return agent;
  };

  async function send(url: URL, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const { agent: current, request } = await dispatcher();
    try {
      return await request(url.href, {
        dispatcher: current,
        method: 'GET',
        headers: {
          accept: options.accept ?? '*/*',
          ...(options.userAgent === undefined ? {} : { 'user-agent': options.userAgent }),
        },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw networkError(url, error);
    }
  }

  async function follow(first: URL, signal: AbortSignal): Promise<OutboundResponse> {
    let url = first;
    for (let redirects = 0; ; redirects++) {
      const response = await send(url, signal);
      const { statusCode } = response;
      if (redirectStatuses.has(statusCode)) {
        discard(response.body);
        const location = header(response.headers.location);
        if (location === undefined) throw new ToolError(`${url.href} answered ${statusCode} without a Location.`);
        if (redirects >= maxRedirects) {
          throw new ToolError(`${first.href} redirected more than ${maxRedirects} times; give the final URL.`);
        }
        const next = URL.parse(location, url.href);
        if (next === null) throw new ToolError(`${url.href} redirected to "${location.slice(0, 200)}", not a URL.`);
        url = checkOutboundUrl(next, urlOptions);
        continue;
      }
      if (statusCode < 200 || statusCode >= 300) {
        discard(response.body);
        throw new ToolError(`${url.href} answered HTTP ${statusCode}.`);
      }
      const declared = Number(header(response.headers['content-length']));
      if (declared > options.maxBytes) {
        discard(response.body);
        throw tooLarge(url, options.maxBytes);
      }
      let body: Buffer;
      try {
        body = await readCapped(response.body, url, options.maxBytes);
      } catch (error) {
        if (error instanceof ToolError || signal.aborted) throw error;
        throw networkError(url, error);
      }
      return { url, status: statusCode, contentType: header(response.headers['content-type']), body, redirects };
    }
  }

  return {
    async fetch(input, { signal } = {}) {
      const url = checkOutboundUrl(input, urlOptions);
      signal?.throwIfAborted();
      // One controller for the caller's signal and the deadline.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeoutMs);
      const cancel = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        return await follow(url, controller.signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (timedOut) throw new ToolError(`Fetching ${url.href} took longer than ${options.timeoutMs} ms.`);
        throw error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
      }
    },
    async close() {
      if (agent !== undefined) await (await agent).agent.destroy();
    },
  };
}
