import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ToolError } from '@toolshed/mcp-core';
import type { Dispatcher } from 'undici';
import { createGuardedLookup } from './guarded-lookup.ts';
import { OutboundFetchError } from './outbound-fetch-error.ts';
import { checkOutboundUrl } from './outbound-url.ts';

/**
 * Who chose the URLs a fetcher is given. `model`: anything a model sent,
 * checked on every hop. `operator`: the server's own configuration (an API's
 * base URL), trusted as it is — a mirror on this machine is fine — but a
 * redirect may not leave its origin.
 */
export type OutboundTrust = 'model' | 'operator';

export interface OutboundFetchOptions {
  /** The largest body accepted, counted while it streams; a larger declared or sent body is refused. */
  maxBytes: number;
  /** The whole fetch — connection, every redirect and the body — must finish within this. */
  timeoutMs: number;
  /** Default `model`. */
  trust?: OutboundTrust | undefined;
  /** Milliseconds to open a connection. Default: the smaller of `timeoutMs` and 10 s. */
  connectTimeoutMs?: number | undefined;
  /** Milliseconds to wait for the headers. Default `timeoutMs`. */
  headersTimeoutMs?: number | undefined;
  /** Milliseconds the body may go quiet. Default `timeoutMs`. */
  bodyTimeoutMs?: number | undefined;
  /** Connections kept open per origin; more requests queue on them. Default: no cap. */
  maxConnections?: number | undefined;
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
  /**
   * Where requests go through: `environment` (the default) honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (or
   * their lower-case forms) as read when the fetcher is made; `none` connects directly; or name the proxies.
   */
  proxy?: 'environment' | 'none' | OutboundProxy | undefined;
}

/** A proxy for `http:` and one for `https:` URLs, and the hosts (`NO_PROXY` syntax) reached directly. */
export interface OutboundProxy {
  httpProxy?: string | undefined;
  httpsProxy?: string | undefined;
  noProxy?: string | undefined;
}

export interface OutboundRequestOptions {
  signal?: AbortSignal | undefined;
  /** Sent as `Accept`, instead of the fetcher's. */
  accept?: string | undefined;
  /**
   * Answer a non-2xx status with the response (its body read up to 64 KiB,
   * for the reason it gives) instead of failing: for callers that decide
   * themselves what a 429 or a 503 means.
   */
  anyStatus?: boolean | undefined;
}

export interface OutboundResponse {
  /** Where the body came from, after redirects. */
  url: URL;
  status: number;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
  redirects: number;
}

export interface OutboundFetcher {
  /** GETs a URL; every failure is an {@link OutboundFetchError} (or a refused URL's ToolError) that says what happened. */
  fetch(url: string | URL, options?: OutboundRequestOptions): Promise<OutboundResponse>;
  /** Closes kept-alive connections; requests still running are ended. */
  close(): Promise<void>;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Error bodies are read for their reason only. */
const maxErrorBodyBytes = 65_536;
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function definedOnly(proxy: OutboundProxy): { httpProxy?: string; httpsProxy?: string; noProxy?: string } {
  return Object.fromEntries(Object.entries(proxy).filter(([, value]) => value !== undefined && value !== ''));
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Throws the body away without letting a late error escape. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(url: URL, maxBytes: number): OutboundFetchError {
  return new OutboundFetchError(
    'too_large',
    `${url.href} is larger than ${maxBytes} bytes, the most this server fetches.`,
  );
}

function networkError(url: URL, error: unknown): unknown {
  let cause: unknown = error;
  // undici wraps the socket's error; the innermost one says what happened.
  while (cause instanceof Error && !(cause instanceof ToolError) && cause.cause instanceof Error) cause = cause.cause;
  // The guarded lookup's refusal (a reserved address) says what happened already.
  if (cause instanceof ToolError) return cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') return error;
  const details = code === undefined ? {} : { code };
  if (code !== undefined && timeoutCodes.has(code)) {
    return new OutboundFetchError('timeout', `${url.host} did not answer in time.`, details);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new OutboundFetchError('network', `${url.hostname} does not resolve.`, details);
  }
  if (code === 'ECONNREFUSED') {
    return new OutboundFetchError('network', `Could not connect to ${url.host}: the connection was refused.`, details);
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
    return new OutboundFetchError(
      'network',
      `${url.host} closed the connection before the answer was complete.`,
      details,
    );
  }
  const reason = code ?? (cause instanceof Error ? cause.message : String(cause));
  return new OutboundFetchError('network', `Could not fetch ${url.href}: ${reason}.`, details);
}

/** The body, or `undefined` once it passes `maxBytes` (the rest is not read). */
async function readCapped(body: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The one way our servers fetch over HTTP: one keep-alive undici dispatcher,
 * timeouts for every phase and one deadline for the whole fetch, bodies
 * capped while they stream, redirects followed and checked. For URLs from a
 * model (`trust: 'model'`, the default) only the allowed schemes, no
 * credentials and no reserved address — checked on the first URL, on every
 * redirect, and on every address a name resolves to, so DNS names pointing
 * at loopback, private networks or cloud metadata are refused before a
 * connection is made. For the operator's own URLs (`trust: 'operator'`)
 * redirects stay on the origin. undici is loaded on first use: install it
 * next to this package when you use the fetcher.
 *
 * @example
 * const fetcher = createOutboundFetcher({ maxBytes: 20e6, timeoutMs: 15_000 });
 * const { body } = await fetcher.fetch('https://example.com/cat.jpg');
 */
function proxyFrom(setting: OutboundFetchOptions['proxy'], env: NodeJS.ProcessEnv): OutboundProxy | undefined {
  if (setting === 'none') return undefined;
  const proxy =
    setting === undefined || setting === 'environment'
      ? {
          httpProxy: env.HTTP_PROXY ?? env.http_proxy,
          httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
          noProxy: env.NO_PROXY ?? env.no_proxy,
        }
      : setting;
  return proxy.httpProxy || proxy.httpsProxy ? proxy : undefined;
}

export function createOutboundFetcher(options: OutboundFetchOptions): OutboundFetcher {
  const maxRedirects = options.maxRedirects ?? 3;
  const fromModel = (options.trust ?? 'model') === 'model';
  const proxy = proxyFrom(options.proxy, process.env);
  // Through a proxy, the proxy resolves names, so the guarded lookup cannot run at connect time (and would refuse a
  // proxy on the operator's own network): a model's URL has its name resolved and checked before each hop instead.
  const guardedLookup = fromModel
    ? createGuardedLookup({ dnsServers: options.dnsServers, trustedHosts: options.trustedHosts })
    : undefined;
  const resolvesBeforeEachHop = guardedLookup !== undefined && proxy !== undefined;
  const checkResolvedName = (url: URL): Promise<void> =>
    new Promise((resolve, reject) => {
      if (guardedLookup === undefined) {
        resolve();
        return;
      }
      guardedLookup(url.hostname, { all: false }, (error) => (error ? reject(error) : resolve()));
    });
  const urlOptions = { schemes: options.schemes, trustedHosts: options.trustedHosts };
  const checkUrl = (url: string | URL): URL => {
    if (fromModel) return checkOutboundUrl(url, urlOptions);
    return typeof url === 'string' ? new URL(url) : url;
  };
  let agent: Promise<{ agent: Dispatcher; request: typeof import('undici').request }> | undefined;
  // Once loaded, requests take it as it is rather than awaiting the settled promise each time.
  let loaded: Awaited<typeof agent>;
  const dispatcher = () => {
    agent ??= import('undici').then(({ Agent, EnvHttpProxyAgent, request }) => {
      const settings = {
        connect: {
          ...(guardedLookup !== undefined && proxy === undefined ? { lookup: guardedLookup } : {}),
          timeout: options.connectTimeoutMs ?? Math.min(options.timeoutMs, 10_000),
        },
        headersTimeout: options.headersTimeoutMs ?? options.timeoutMs,
        bodyTimeout: options.bodyTimeoutMs ?? options.timeoutMs,
        ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 120_000,
      };
      loaded = {
        agent:
          proxy === undefined ? new Agent(settings) : new EnvHttpProxyAgent({ ...settings, ...definedOnly(proxy) }),
        request,
      };
      return loaded;
    });
    return agent;
  };
  const { userAgent } = options;

  async function send(url: URL, accept: string, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const { agent: current, request } = loaded ?? (await dispatcher());
    try {
      if (resolvesBeforeEachHop) await checkResolvedName(url);
      return await request(url, {
        dispatcher: current,
        method: 'GET',
        headers: userAgent === undefined ? { accept } : { accept, 'user-agent': userAgent },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw networkError(url, error);
    }
  }

  function redirectTarget(first: URL, url: URL, status: number, location: string | undefined, hops: number): URL {
    if (location === undefined) {
      throw new OutboundFetchError('redirect', `${url.href} answered ${status} without a Location.`, { status });
    }
    if (hops >= maxRedirects) {
      throw new OutboundFetchError(
        'redirect',
        `${first.href} redirected more than ${maxRedirects} times; give the final URL.`,
        {
          status,
        },
      );
    }
    const next = URL.parse(location, url.href);
    if (next === null) {
      throw new OutboundFetchError('redirect', `${url.href} redirected to "${location.slice(0, 200)}", not a URL.`, {
        status,
      });
    }
    if (fromModel) return checkOutboundUrl(next, urlOptions);
    // A configured upstream that sends us elsewhere is not one the operator chose to trust.
    if (next.origin !== first.origin) {
      throw new OutboundFetchError('redirect', `${first.origin} redirected to another origin, which is not followed.`, {
        status,
      });
    }
    return next;
  }

  async function follow(first: URL, request: OutboundRequestOptions, signal: AbortSignal): Promise<OutboundResponse> {
    const accept = request.accept ?? options.accept ?? '*/*';
    let url = first;
    for (let redirects = 0; ; redirects++) {
      const response = await send(url, accept, signal);
      const { statusCode: status, headers } = response;
      if (redirectStatuses.has(status)) {
        discard(response.body);
        url = redirectTarget(first, url, status, header(headers.location), redirects);
        continue;
      }
      const ok = status >= 200 && status < 300;
      if (!ok && request.anyStatus !== true) {
        discard(response.body);
        throw new OutboundFetchError('status', `${url.href} answered HTTP ${status}.`, { status });
      }
      const cap = ok ? options.maxBytes : maxErrorBodyBytes;
      if (ok && Number(header(headers['content-length'])) > cap) {
        discard(response.body);
        throw tooLarge(url, cap);
      }
      let body: Buffer | undefined;
      try {
        body = await readCapped(response.body, cap);
      } catch (error) {
        if (signal.aborted) throw error;
        throw networkError(url, error);
      }
      if (body === undefined && ok) throw tooLarge(url, cap);
      const contentType = header(headers['content-type']);
      return { url, status, contentType, headers, body: body ?? Buffer.alloc(0), redirects };
    }
  }

  return {
    async fetch(input, request = {}) {
      const url = checkUrl(input);
      const { signal } = request;
      signal?.throwIfAborted();
      // One controller for the caller's signal and the deadline: cheaper than AbortSignal.any on every request.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeoutMs);
      const cancel = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        // Raced against the deadline too: a proxy that never answers its CONNECT does not heed the signal.
        const aborted = new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
        });
        return await Promise.race([follow(url, request, controller.signal), aborted]);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (timedOut) {
          throw new OutboundFetchError('timeout', `Fetching ${url.href} took longer than ${options.timeoutMs} ms.`);
        }
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
