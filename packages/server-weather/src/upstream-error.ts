import { ToolError } from '@toolshed/mcp-core';

/** How an upstream request failed, in the terms its message is written from. */
export type UpstreamFailure = 'status' | 'timeout' | 'network' | 'too_large' | 'malformed' | 'redirect';

export interface UpstreamErrorDetails {
  /** The HTTP status, for `status` failures. */
  status?: number | undefined;
  /** The parsed error body, when there was one: Open-Meteo's `{ error, reason }` or NWS's problem+json. */
  body?: unknown;
  /** When the upstream asked to be retried later. */
  retryAfterSeconds?: number | undefined;
  /** Tries made, the first included. */
  attempts: number;
}

/**
 * An upstream request that failed for good: retries are spent or pointless.
 * Its message is written for the model — what failed and what to do — and
 * names the upstream, never a URL with a key in it; as a ToolError it
 * reaches the model as it is.
 */
export class UpstreamError extends ToolError {
  override readonly name = 'UpstreamError';
  /** The upstream's display name, as in "Open-Meteo". */
  readonly upstream: string;
  readonly failure: UpstreamFailure;
  readonly details: UpstreamErrorDetails;

  constructor(upstream: string, failure: UpstreamFailure, message: string, details: UpstreamErrorDetails) {
    super(message);
    this.upstream = upstream;
    this.failure = failure;
    this.details = details;
  }

  /** The reason an upstream gave in its error body, when it gave one. */
  get reason(): string | undefined {
    const body = this.details.body;
    if (typeof body !== 'object' || body === null) return undefined;
    const fields = body as Record<string, unknown>;
    for (const key of ['reason', 'detail', 'title']) {
      if (typeof fields[key] === 'string' && fields[key] !== '') return fields[key];
    }
    return undefined;
  }

  /** The problem type NWS gives (`https://api.weather.gov/problems/InvalidPoint` → `InvalidPoint`). */
  get problemType(): string | undefined {
    const body = this.details.body;
    if (typeof body !== 'object' || body === null) return undefined;
    const type = (body as Record<string, unknown>).type;
    return typeof type === 'string' ? type.slice(type.lastIndexOf('/') + 1) : undefined;
  }
}
