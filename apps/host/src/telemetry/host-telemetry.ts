import { processTelemetry } from '@toolshed/mcp-core';

/** What the host adds to the engine's spans: its calls to upstreams, the approval wait, and per-server outcomes. */
export interface HostTelemetry {
  /**
   * Runs one call to an upstream as a `CLIENT` span, recording
   * `mcp.client.operation.duration`; `run` gets the span's W3C trace context
   * (`traceparent`, `tracestate`, `baggage`) for the request's `_meta`.
   */
  upstreamCall<Result>(
    facts: { server: string; tool: string },
    run: (traceContext: Record<string, string>) => Promise<Result>,
  ): Promise<Result>;
  /**
   * Runs the wait for a human's decision as its own span, which also ends
   * when `signal` aborts (a 2026-era round that ends with the question).
   */
  approvalWait<Result extends { approval: string }>(
    tool: string,
    signal: AbortSignal,
    run: () => Promise<Result>,
  ): Promise<Result>;
  /** Records a host call's whole duration, by server, tool and outcome (`ok`, `declined`, `rate_limited`, …). */
  callEnded(facts: { server: string; tool: string; outcome: string }, seconds: number): void;
  /** The trace the current call belongs to, for its audit row. */
  traceId(): string | undefined;
}

let loaded: HostTelemetry | undefined;

/**
 * Loads the host's telemetry when this process started OpenTelemetry
 * (`startTelemetry`), and nothing at all otherwise.
 */
export async function loadHostTelemetry(): Promise<void> {
  if (processTelemetry() === undefined || loaded !== undefined) return;
  const { createOtelHostTelemetry } = await import('./otel-host-telemetry.ts');
  loaded = createOtelHostTelemetry();
}

/** The host's telemetry, or `undefined` when it is off. */
export function hostTelemetry(): HostTelemetry | undefined {
  return loaded;
}
