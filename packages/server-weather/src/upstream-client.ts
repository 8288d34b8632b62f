import {
  createOutboundFetcher,
  OutboundFetchError,
  type OutboundFetcher,
  type OutboundResponse,
} from '@toolshed/guards';
import { backoffMs, retryAfterMs } from './retry-after.ts';
import { UpstreamError, type UpstreamErrorDetails, type UpstreamFailure } from './upstream-error.ts';
import type { WeatherLimits } from './weather-server-options.ts';

/** The limits the client keeps to (see WeatherServerOptions), and the User-Agent it sends. */
export type UpstreamClientOptions = Pick<
  WeatherLimits,
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
  /** `json` (the default): the body parsed; `text`: the body as UTF-8 text, for XML feeds parsed by the caller. */
  format?: 'json' | 'text';
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  body: unknown;
  /** Bytes of the body, what the cache counts. */
  bytes: number;
}

/** Statuses worth another try: the upstream is busy or broken for a moment. */
const retryableStatuses = new Set([408, 429, 500, 502, 503, 504]);

/** A try that settled without an answer, weighed for a retry. */
class AttemptFailure extends Error {
  readonly failure: UpstreamFailure;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly retryAfter: number | undefined;
  readonly code: string | undefined;

  constructor(
    failure: UpstreamFailure,
    retryable: boolean,
    details: { status?: number; body?: unknown; retryAfter?: number | undefined; code?: string | undefined } = {},
  ) {
    super(failure);
    this.failure = failure;
    this.retryable = retryable;
    this.status = details.status;
    this.body = details.body;
    this.retryAfter = details.retryAfter;
    this.code = details.code;
  }
}

/** A failed fetch as an AttemptFailure; a cancellation or anything unknown as it is. */
function attemptFailure(error: unknown): unknown {
  if (!(error instanceof OutboundFetchError)) return error;
  switch (error.failure) {
    case 'timeout':
      return new AttemptFailure('timeout', true, { code: error.code });
    case 'network':
      // A name that does not resolve will not resolve a second later either.
      return new AttemptFailure('network', error.code !== 'ENOTFOUND', { code: error.code });
    case 'too_large':
      return new AttemptFailure('too_large', false);
    case 'redirect':
      return new AttemptFailure('redirect', false, error.status === undefined ? {} : { status: error.status });
    case 'status':
      return new AttemptFailure('status', retryableStatuses.has(error.status ?? 0), { status: error.status ?? 0 });
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * GETs JSON from the upstreams through the shared fetcher, trusting the
 * configured URLs as the operator's own: one keep-alive dispatcher
 * (at most `maxConnections` per host, the rest queue), every phase timed,
 * bodies capped while they stream, same-origin redirects followed — and
 * 429/5xx/network failures tried again with jittered exponential backoff
 * that honours Retry-After.
 */
export class UpstreamClient {
  readonly #fetcher: OutboundFetcher;
  readonly #options: UpstreamClientOptions;

  constructor(options: UpstreamClientOptions) {
    this.#options = options;
    this.#fetcher = createOutboundFetcher({
      trust: 'operator',
      maxBytes: options.maxResponseBytes,
      timeoutMs: options.requestTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      maxConnections: options.maxConnections,
      userAgent: options.userAgent,
    });
  }

  /**
   * The body of a 2xx answer — parsed JSON, or text — ; anything else ends in
   * an UpstreamError once retries are spent.
   */
  async get(upstreamRequest: UpstreamRequest): Promise<UpstreamResponse> {
    const { maxAttempts, retryDelayMs, maxRetryDelayMs } = this.#options;
    const { signal } = upstreamRequest;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const outcome = await this.#tryOnce(upstreamRequest);
      if (!(outcome instanceof AttemptFailure)) return outcome;
      const wait = outcome.retryAfter ?? backoffMs(attempt, retryDelayMs, maxRetryDelayMs, Math.random);
      if (!outcome.retryable || attempt >= maxAttempts || wait > maxRetryDelayMs) {
        throw this.#upstreamError(upstreamRequest.upstream, outcome, attempt);
      }
      // Loaded here, not imported: node:timers/promises stays off the server's start-up path.
      const { setTimeout: sleep } = process.getBuiltinModule('node:timers/promises');
      await sleep(wait, undefined, { signal });
    }
  }

  /** One try: the answer, or the failure to weigh for a retry. A cancelled caller's reason is thrown as it is. */
  async #tryOnce({ url, accept, signal, format }: UpstreamRequest): Promise<UpstreamResponse | AttemptFailure> {
    let response: OutboundResponse;
    try {
      response = await this.#fetcher.fetch(url, { accept, signal, anyStatus: true });
    } catch (error) {
      const failure = attemptFailure(error);
      if (failure instanceof AttemptFailure) return failure;
      throw failure;
    }
    const { status } = response;
    if (status < 200 || status >= 300) {
      return new AttemptFailure('status', retryableStatuses.has(status), {
        status,
        body: parseJson(response.body),
        retryAfter: retryAfterMs(response.headers['retry-after']),
      });
    }
    if (format === 'text') return { body: response.body.toString('utf8'), bytes: response.body.length };
    const body = parseJson(response.body);
    if (body === undefined) return new AttemptFailure('malformed', false, { status });
    return { body, bytes: response.body.length };
  }

  /** Closes the kept-alive connections; requests still running are ended. */
  async close(): Promise<void> {
    await this.#fetcher.close();
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
          `Could not reach ${upstream} (${describeCode(failure.code)})${tries}; this machine may be offline, or the upstream down. Try again later.`,
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

/** The network failure in words, never the URL: a configured URL may carry a key. */
function describeCode(code: string | undefined): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the name did not resolve';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed';
  return code ?? 'network error';
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
