import type { RequestTelemetry } from '../engine/request-telemetry.ts';
import type { StartedTelemetry } from './start-otel-sdk.ts';
import { readTelemetrySettings } from './telemetry-settings.ts';

/**
 * The telemetry this process started. OpenTelemetry's providers are global
 * to a process by design, so this is the one process-wide value the engine
 * knows of: servers created after the start report through it unless their
 * own options say otherwise.
 */
let started: StartedTelemetry | undefined;

/** The engine's telemetry when this process started it; `undefined` (and nothing loaded) otherwise. */
export function processTelemetry(): RequestTelemetry | undefined {
  return started?.telemetry;
}

export interface StartTelemetryOptions {
  /** `service.name` unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` set one. */
  serviceName: string;
  /** The `OTEL_*` variables. */
  env: Readonly<Record<string, string | undefined>>;
  /** `[HOST:]PORT` to serve `/metrics` on for Prometheus (loopback unless a host is given). */
  metrics?: string | undefined;
}

/**
 * Starts OpenTelemetry for this process when the standard `OTEL_*`
 * variables or `metrics` ask for it, and resolves what `/metrics` listens
 * on, if anything. With nothing asked it resolves at once and loads no
 * `@opentelemetry` module. A variable set wrong throws a `config_invalid`
 * LocalError. Servers created afterwards emit spans and metrics.
 *
 * @example
 * await startTelemetry({ serviceName: 'my-server', env: process.env, metrics: '9464' });
 */
export async function startTelemetry(options: StartTelemetryOptions): Promise<{ metricsUrl: string | undefined }> {
  const settings = readTelemetrySettings(options.env, options.metrics);
  if (settings === undefined || started !== undefined) return { metricsUrl: started?.metricsUrl };
  const { startOtelSdk } = await import('./start-otel-sdk.ts');
  started = await startOtelSdk(settings, options.serviceName, options.env);
  return { metricsUrl: started.metricsUrl };
}

/** Sends what is still buffered and stops the exporters; a no-op when telemetry never started. */
export async function stopTelemetry(): Promise<void> {
  const running = started;
  started = undefined;
  await running?.shutdown();
}
