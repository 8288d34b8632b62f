import type { JsonRpcId, JsonRpcParams } from '../messages/jsonrpc-message.ts';

/** A request as telemetry sees it; a call from this process (a host mounting the server) has no id. */
export interface ObservedRequest {
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

/** An answer as telemetry sees it: a JSON-RPC response, or the result of a call from this process. */
export type ObservedAnswer = { result: object } | { error: { code: number; message: string } };

/** What a request's span and metrics say about where it came from, known to the adapter that received it. */
export interface RequestFacts {
  /** The protocol version the request is served under. */
  readonly protocolVersion: string | undefined;
  /** The 2025-era session it belongs to; never set for 2026-era requests, which have none. */
  readonly sessionId: string | undefined;
  /** `pipe` for stdio, `tcp` for HTTP; unset in memory. */
  readonly networkTransport: string | undefined;
}

/**
 * Observes the requests a server answers. The engine holds `undefined` when
 * telemetry is off, so a request then costs one comparison; the
 * OpenTelemetry implementation is loaded only when it is on.
 */
export interface RequestTelemetry {
  /** Runs `answer` as the request's span, and records its duration once the answer (or none) is in. */
  serve<Answer extends ObservedAnswer | undefined>(
    request: ObservedRequest,
    facts: () => RequestFacts,
    answer: () => Answer | Promise<Answer>,
  ): Promise<Answer>;
  /** Records a 2025-era session's whole life, from its start to its close. */
  sessionEnded(facts: RequestFacts, seconds: number): void;
}
