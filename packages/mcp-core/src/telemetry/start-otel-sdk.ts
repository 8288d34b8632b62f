/**
 * Starts the OpenTelemetry SDK for this process. Only `startTelemetry`
 * imports this module, and only when telemetry is on: with it off, no
 * `@opentelemetry` module is ever loaded.
 *
 * @module
 */
import { metrics } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { RequestTelemetry } from '../engine/request-telemetry.ts';
import { LocalError } from '../errors/local-error.ts';
import { createOtelRequestTelemetry } from './otel-request-telemetry.ts';
import { spanBatchSettings } from './span-batch-settings.ts';
import type { TelemetrySettings } from './telemetry-settings.ts';

const { createServer } = process.getBuiltinModule('node:http');

/** A running SDK: the engine's telemetry, where `/metrics` listens, and how to flush and stop. */
export interface StartedTelemetry {
  telemetry: RequestTelemetry;
  metricsUrl: string | undefined;
  shutdown(): Promise<void>;
}

type Environment = Readonly<Record<string, string | undefined>>;

function exportIntervalMs(env: Environment): number {
  const value = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return Number.isFinite(value) && value > 0 ? value : 60_000;
}

/** Serves the Prometheus exporter's `/metrics` on our own listener, so port 0 works and the URL is known. */
async function listenForScrapes(
  exporter: PrometheusExporter,
  where: { host: string; port: number },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      exporter.getMetricsRequestHandler(request, response);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new LocalError('config_invalid', `cannot serve metrics on ${where.host}:${where.port}: ${error.message}`)),
    );
    server.listen(where.port, where.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : where.port;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Registers the global tracer and meter providers from the settings: spans
 * in batches to OTLP over HTTP (JSON), metrics to OTLP or to a Prometheus
 * `/metrics` endpoint. The exporters read their own `OTEL_EXPORTER_OTLP_*`
 * variables; the resource takes `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES`, else `serviceName`.
 */
export async function startOtelSdk(
  settings: TelemetrySettings,
  serviceName: string,
  env: Environment,
): Promise<StartedTelemetry> {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const closers: (() => Promise<void>)[] = [];
  let tracerProvider: NodeTracerProvider | undefined;
  if (settings.traces) {
    tracerProvider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(), spanBatchSettings(env))],
    });
    // Also installs the AsyncLocalStorage context manager and the W3C trace-context and baggage propagators.
    tracerProvider.register();
    const provider = tracerProvider;
    closers.push(() => provider.shutdown());
  }
  const readers: MetricReader[] = [];
  if (settings.otlpMetrics) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: exportIntervalMs(env),
      }),
    );
  }
  let metricsUrl: string | undefined;
  if (settings.prometheus !== undefined) {
    const exporter = new PrometheusExporter({ preventServerStart: true });
    readers.push(exporter);
    const listener = await listenForScrapes(exporter, settings.prometheus);
    metricsUrl = listener.url;
    closers.push(() => listener.close());
  }
  let meterProvider: MeterProvider | undefined;
  if (readers.length > 0) {
    meterProvider = new MeterProvider({ resource, readers });
    metrics.setGlobalMeterProvider(meterProvider);
    const provider = meterProvider;
    closers.push(() => provider.shutdown());
  }
  const options: Parameters<typeof createOtelRequestTelemetry>[0] = {
    resourceUriInSpanName: env.TOOLSHED_OTEL_RESOURCE_URI_IN_SPAN_NAME === 'true',
    recordToolContent: env.TOOLSHED_OTEL_RECORD_TOOL_CONTENT === 'true',
  };
  if (tracerProvider !== undefined) options.tracerProvider = tracerProvider;
  if (meterProvider !== undefined) options.meterProvider = meterProvider;
  const telemetry = createOtelRequestTelemetry(options);
  return {
    telemetry,
    metricsUrl,
    async shutdown() {
      // Spans that ended this turn reach the exporters before they send their last batch.
      telemetry.flush();
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
