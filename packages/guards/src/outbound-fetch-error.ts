import { ToolError } from '@toolshed/mcp-core';

/** How a fetch failed: what a caller weighs for a retry, and what its message says. */
export type OutboundFailure = 'timeout' | 'network' | 'too_large' | 'redirect' | 'status';

/**
 * A fetch that failed, with a message written for the model (what happened,
 * where) and the failure kind for callers that retry: a timeout or a network
 * error may pass, a body over the cap will not.
 */
export class OutboundFetchError extends ToolError {
  override readonly name = 'OutboundFetchError';
  readonly failure: OutboundFailure;
  /** The HTTP status, for `status` and `redirect` failures. */
  readonly status: number | undefined;
  /** The error code of the socket or of undici, for `network` and `timeout` failures: `ECONNREFUSED`, `ENOTFOUND` … */
  readonly code: string | undefined;

  constructor(failure: OutboundFailure, message: string, details: { status?: number; code?: string } = {}) {
    super(message);
    this.failure = failure;
    this.status = details.status;
    this.code = details.code;
  }
}
