import { LocalError } from '../errors/local-error.ts';

type Environment = Readonly<Record<string, string | undefined>>;

/** What the standard `OTEL_*` variables and `--metrics` turn on; read without loading any of OpenTelemetry. */
export interface TelemetrySettings {
  /** Spans to OTLP over HTTP. */
  traces: boolean;
  /** Metrics pushed to OTLP over HTTP. */
  otlpMetrics: boolean;
  /** Where `/metrics` listens for Prometheus to scrape. */
  prometheus: { host: string; port: number } | undefined;
}

function exporters(env: Environment, name: string): string[] | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  const names = value.split(',').map((entry) => entry.trim().toLowerCase());
  return names;
}

function check(names: string[] | undefined, variable: string, supported: readonly string[]): void {
  const unknown = names?.find((entry) => !supported.includes(entry));
  if (unknown !== undefined) {
    throw new LocalError('config_invalid', `${variable}: "${unknown}" is not supported; use ${supported.join(', ')}`);
  }
}

const samplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, which the SDK reads
 * itself: refused here when wrong, where the SDK would log and trace every
 * request instead, so an operator who asked for 1 in 10 never pays for all.
 */
function checkSampler(env: Environment): void {
  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  if (sampler === undefined || sampler === '') return;
  check([sampler], 'OTEL_TRACES_SAMPLER', samplers);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (sampler.endsWith('traceidratio') && ratio !== undefined && ratio !== '') {
    const value = Number(ratio);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new LocalError(
        'config_invalid',
        `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (0.1 traces 1 request in 10); got "${ratio}"`,
      );
    }
  }
}

/** `9464`, `127.0.0.1:9464`, `[::1]:9464` or `0.0.0.0:9464`; loopback unless a host is given. */
export function parseMetricsListen(value: string, what: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    throw new LocalError(
      'config_invalid',
      `${what} must be PORT or HOST:PORT (such as 127.0.0.1:9464); got "${value}"`,
    );
  }
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

/**
 * Reads the OpenTelemetry environment the way every OTel user expects:
 * nothing is on unless asked; `OTEL_SDK_DISABLED=true` turns everything off;
 * an OTLP endpoint turns on traces and metrics unless `OTEL_TRACES_EXPORTER`
 * or `OTEL_METRICS_EXPORTER` say otherwise; `OTEL_METRICS_EXPORTER=prometheus`
 * or `metricsListen` serve `/metrics`.
 */
export function readTelemetrySettings(
  env: Environment,
  metricsListen: string | undefined,
): TelemetrySettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const traceExporters = exporters(env, 'OTEL_TRACES_EXPORTER');
  const metricExporters = exporters(env, 'OTEL_METRICS_EXPORTER');
  check(traceExporters, 'OTEL_TRACES_EXPORTER', ['otlp', 'none']);
  check(metricExporters, 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus', 'none']);
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (protocol !== undefined && protocol !== '' && protocol !== 'http/json') {
    throw new LocalError(
      'config_invalid',
      `OTEL_EXPORTER_OTLP_PROTOCOL: "${protocol}" is not supported; OTLP is sent as http/json (unset it or set http/json)`,
    );
  }
  checkSampler(env);
  const endpoint = (name: string) => (env[name]?.trim() ?? '') !== '';
  const anyEndpoint = endpoint('OTEL_EXPORTER_OTLP_ENDPOINT');
  const traces = traceExporters?.includes('otlp') ?? (anyEndpoint || endpoint('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'));
  const otlpMetrics =
    metricExporters?.includes('otlp') ?? (anyEndpoint || endpoint('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'));
  let prometheus: TelemetrySettings['prometheus'];
  if (metricsListen !== undefined) prometheus = parseMetricsListen(metricsListen, '--metrics');
  else if (metricExporters?.includes('prometheus') === true) {
    prometheus = {
      host: env.OTEL_EXPORTER_PROMETHEUS_HOST?.trim() || '127.0.0.1',
      port: parseMetricsListen(env.OTEL_EXPORTER_PROMETHEUS_PORT?.trim() || '9464', 'OTEL_EXPORTER_PROMETHEUS_PORT')
        .port,
    };
  }
  if (!traces && !otlpMetrics && prometheus === undefined) return undefined;
  return { traces, otlpMetrics, prometheus };
}
