import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
  /** The exporting process's resource attributes (`service.name`, …). */
  resource: Record<string, unknown>;
}

/** One histogram data point of an OTLP/HTTP JSON metrics export. */
export interface ReceivedHistogramPoint {
  metric: string;
  unit: string;
  attributes: Record<string, unknown>;
  count: number;
  explicitBounds: number[];
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly histogramPoints: ReceivedHistogramPoint[];
  /** Resolves the spans once `predicate` holds for them; rejects after `timeoutMs` (a hang guard, not a speed bar). */
  waitForSpans(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function flatten(attributes: OtlpAttributes): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, plain(value)]));
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

interface TraceExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttributes };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttributes;
        status?: { code?: number; message?: string };
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}

interface MetricsExport {
  resourceMetrics?: {
    resource?: { attributes?: OtlpAttributes };
    scopeMetrics?: {
      metrics?: {
        name: string;
        unit?: string;
        histogram?: {
          dataPoints?: { attributes?: OtlpAttributes; count?: number | string; explicitBounds?: number[] }[];
        };
      }[];
    }[];
  }[];
}

/**
 * A small OTLP/HTTP receiver for tests: it takes the JSON encoding on
 * `/v1/traces` and `/v1/metrics` (what the OTLP HTTP exporters send with
 * `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps what arrived, decoded.
 * There is no OpenTelemetry Collector in Debian to start instead.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * // OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url …
 * const spans = await receiver.waitForSpans((all) => all.some((span) => span.name === 'tools/call echo'));
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const histogramPoints: ReceivedHistogramPoint[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        if (request.url === '/v1/traces') {
          for (const resourceSpans of (body as TraceExport).resourceSpans ?? []) {
            const resource = flatten(resourceSpans.resource?.attributes);
            for (const scope of resourceSpans.scopeSpans ?? []) {
              for (const span of scope.spans ?? []) {
                spans.push({
                  traceId: span.traceId,
                  spanId: span.spanId,
                  parentSpanId: span.parentSpanId ?? '',
                  name: span.name,
                  kind: span.kind,
                  attributes: flatten(span.attributes),
                  status: span.status ?? {},
                  links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
                  resource,
                });
              }
            }
          }
        } else if (request.url === '/v1/metrics') {
          for (const resourceMetrics of (body as MetricsExport).resourceMetrics ?? []) {
            const resource = flatten(resourceMetrics.resource?.attributes);
            for (const scope of resourceMetrics.scopeMetrics ?? []) {
              for (const metric of scope.metrics ?? []) {
                for (const point of metric.histogram?.dataPoints ?? []) {
                  histogramPoints.push({
                    metric: metric.name,
                    unit: metric.unit ?? '',
                    attributes: flatten(point.attributes),
                    count: Number(point.count ?? 0),
                    explicitBounds: point.explicitBounds ?? [],
                    resource,
                  });
                }
              }
            }
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        for (const wake of waiters) wake();
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    histogramPoints,
    waitForSpans(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return;
          clearTimeout(guard);
          waiters.delete(check);
          resolve([...spans]);
        };
        const guard = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the spans awaited never arrived; received: ${spans.map((span) => span.name).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
