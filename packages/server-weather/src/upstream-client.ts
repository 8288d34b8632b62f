import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher, request } from 'undici';
import { backoffMs, retryAfterMs } from './retry-after.ts';
import { UpstreamError, type UpstreamErrorDetails, type UpstreamFailure } from './upstream-error.ts';
import type { ResolvedWeatherLimits } from './weather-server-options.ts';

/** The limits the client keeps to (see WeatherServerOptions), and the User-Agent it sends. */
export type UpstreamClientOptions = Pick<
  ResolvedWeatherLimits,
  | 'connectTimeoutMs'
  | 'headersTimeoutMs'
  | 'bodyTimeoutMs'
  | 'requestTimeoutMs'
  | 'maxAttempts'
  | 'retryDelayMs'
  | 'maxRetryDelayMs'
  | 'maxResponseBytes'
  | 'maxConnections'
> & {
  /** Sent on every request; NWS refuses clients without one. */
  userAgent: string;
};

export interface UpstreamRequest {
  /** The upstream's display name, for messages: "Open-Meteo", "NWS". */
  upstream: string;
  url: URL;
  accept: string;
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  body: unknown;
  /** Bytes of the body, what the cache counts. */
  bytes: number;
}

/** Statuses worth another try: the upstream is busy or broken for a moment. */
const retryableStatuses = new Set([408, 429, 500, 502, 503, 504]);
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const maxRedirects = 3;
/** Error bodies are read for their reason only. */
const maxErrorBodyBytes = 65_536;

/** A response whose status or body settles the attempt. */
class AttemptFailure extends Error {
  readonly failure: UpstreamFailure;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly retryAfter: number | undefined;

  constructor(
    failure: UpstreamFailure,
    retryable: boolean,
    status?: number,
    body?: unknown,
    retryAfter?: number,
    cause?: unknown,
  ) {
    super(failure, { cause });
    this.failure = failure;
    this.retryable = retryable;
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/**
 * GETs JSON from the upstreams over one keep-alive dispatcher: connections
 * are opened once and reused (at most `maxConnections` per host, the rest
 * queue), every phase has a timeout, bodies are capped while they stream,
 * same-host redirects are followed, and 429/5xx/network failures are tried
 * again with jittered exponential backoff that honours Retry-After.
 */
export class UpstreamClient {
  readonly #agent: Agent;
  readonly #options: UpstreamClientOptions;

  constructor(options: UpstreamClientOptions) {
    this.#options = options;
    this.#agent = new Agent({
      connections: options.maxConnections,
      connectTimeout: options.connectTimeoutMs,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
    });
  }

  /** The parsed JSON of a 2xx answer; anything else ends in an UpstreamError once retries are spent. */
  async getJson(upstreamRequest: UpstreamRequest): Promise<UpstreamResponse> {
    const { maxAttempts, retryDelayMs, maxRetryDelayMs } = this.#options;
    const { signal } = upstreamRequest;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const error = await this.#tryOnce(upstreamRequest);
      if (!(error instanceof AttemptFailure)) return error;
      const wait = error.retryAfter ?? backoffMs(attempt, retryDelayMs, maxRetryDelayMs, Math.random);
      if (!error.retryable || attempt >= maxAttempts || wait > maxRetryDelayMs) {
        throw this.#upstreamError(upstreamRequest.upstream, error, attempt);
      }
      await sleep(wait, undefined, { signal });
    }
  }

  /**
   * One try under its whole-try deadline: the answer, or the failure to weigh
   * for a retry. A cancelled caller's reason is thrown as it is. One
   * controller serves both the caller's signal and the deadline; it is
   * cheaper than AbortSignal.any over AbortSignal.timeout on every request.
   */
  async #tryOnce(upstreamRequest: UpstreamRequest): Promise<UpstreamResponse | AttemptFailure> {
    const { signal } = upstreamRequest;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#options.requestTimeoutMs);
    const cancel = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await this.#attempt({ ...upstreamRequest, signal: controller.signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) return new AttemptFailure('timeout', true);
      if (error instanceof AttemptFailure) return error;
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Closes the kept-alive connections; requests still running are ended. */
  async close(): Promise<void> {
    await this.#agent.destroy();
  }

  async #attempt({ url, accept, signal }: UpstreamRequest): Promise<UpstreamResponse> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await this.#send(target, accept, signal);
      const { statusCode } = response;
      if (statusCode >= 200 && statusCode < 300) return await this.#readJson(response);
      if (redirectStatuses.has(statusCode)) {
        discard(response.body);
        const location = header(response.headers.location);
        const next = location === undefined ? undefined : URL.parse(location, target.href);
        // Only the same host: an upstream that sends us elsewhere is not one we were configured to trust.
        if (next === null || next === undefined || next.origin !== url.origin || hop >= maxRedirects) {
          throw new AttemptFailure('redirect', false, statusCode);
        }
        target = next;
        continue;
      }
      const body = await this.#readErrorBody(response);
      const retryAfter = retryAfterMs(response.headers['retry-after']);
      throw new AttemptFailure('status', retryableStatuses.has(statusCode), statusCode, body, retryAfter);
    }
  }

  async #send(url: URL, accept: string, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
    try {
      return await request(url.href, {
        dispatcher: this.#agent,
        method: 'GET',
        headers: { accept, 'user-agent': this.#options.userAgent },
        signal,
      });
    } catch (error) {
      throw networkFailure(error);
    }
  }

  async #readJson(response: Dispatcher.ResponseData): Promise<UpstreamResponse> {
    const limit = this.#options.maxResponseBytes;
    const declared = Number(header(response.headers['content-length']));
    if (declared > limit) {
      discard(response.body);
      throw new AttemptFailure('too_large', false);
    }
    const text = await readCapped(response.body, limit);
    if (text === undefined) throw new AttemptFailure('too_large', false);
    try {
      return { body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
    } catch {
      throw new AttemptFailure('malformed', false, response.statusCode);
    }
  }

  async #readErrorBody(response: Dispatcher.ResponseData): Promise<unknown> {
    try {
      const text = await readCapped(response.body, maxErrorBodyBytes);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    } catch {
      return undefined;
    }
  }

  #upstreamError(upstream: string, failure: AttemptFailure, attempts: number): UpstreamError {
    const details = { status: failure.status, body: failure.body, attempts };
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    switch (failure.failure) {
      case 'timeout':
        return new UpstreamError(
          upstream,
          'timeout',
          `${upstream} did not answer in time${tries}; try again in a minute.`,
          details,
        );
      case 'network':
        return new UpstreamError(
          upstream,
          'network',
          `Could not reach ${upstream} (${describeCause(failure.cause)})${tries}; this machine may be offline, or the upstream down. Try again later.`,
          details,
        );
      case 'too_large':
        return new UpstreamError(
          upstream,
          'too_large',
          `${upstream} sent more than ${this.#options.maxResponseBytes} bytes, the response cap; ask for less (fewer days or hours).`,
          details,
        );
      case 'malformed':
        return new UpstreamError(
          upstream,
          'malformed',
          `${upstream} sent a response that is not valid JSON; try again later.`,
          details,
        );
      case 'redirect':
        return new UpstreamError(
          upstream,
          'redirect',
          `${upstream} redirected the request elsewhere (HTTP ${failure.status}), which is not followed; check the configured URL.`,
          details,
        );
      case 'status':
        return statusError(upstream, failure, details);
    }
  }
}

function statusError(upstream: string, failure: AttemptFailure, details: UpstreamErrorDetails): UpstreamError {
  const status = failure.status ?? 0;
  const error = new UpstreamError(upstream, 'status', '', details);
  const reason = error.reason;
  const retryAfterSeconds = failure.retryAfter === undefined ? undefined : Math.ceil(failure.retryAfter / 1000);
  const withDetails = { ...details, retryAfterSeconds };
  const tries = details.attempts > 1 ? ` after ${details.attempts} attempts` : '';
  let message: string;
  if (status === 429) {
    message =
      `${upstream} is limiting requests (HTTP 429)${tries}; ` +
      (retryAfterSeconds === undefined ? 'try again in a minute.' : `try again in ${retryAfterSeconds} s.`);
  } else if (status >= 500) {
    message = `${upstream} failed (HTTP ${status}${reason === undefined ? '' : `: ${reason}`})${tries}; try again later.`;
  } else {
    message = `${upstream} refused the request (HTTP ${status})${reason === undefined ? '' : `: ${reason}`}.`;
  }
  return new UpstreamError(upstream, 'status', message, withDetails);
}

/** The body as text, or undefined once it passes `limit` bytes (the rest is not read). */
async function readCapped(body: Dispatcher.ResponseData['body'], limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) {
        discard(body);
        return undefined;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw networkFailure(error);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A failed send or read as an AttemptFailure to weigh for a retry; a cancellation or anything unknown as it is. */
function networkFailure(error: unknown): unknown {
  if (error instanceof AttemptFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (timeoutCodes.has(code)) return new AttemptFailure('timeout', true, undefined, undefined, undefined, error);
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') return error;
  // A name that does not resolve will not resolve a second later either.
  return new AttemptFailure('network', code !== 'ENOTFOUND', undefined, undefined, undefined, error);
}

function describeCause(cause: unknown): string {
  const { code, hostname } = (cause ?? {}) as { code?: string; hostname?: string };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return hostname === undefined ? 'the name did not resolve' : `the name ${hostname} did not resolve`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed';
  return code ?? 'network error';
}

/** Drops a body not worth reading; a destroyed body reports an error nobody needs. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
