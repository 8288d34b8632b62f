import {
  type Attributes,
  type Context,
  context,
  type Link,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { ObservedAnswer, ObservedRequest, RequestFacts, RequestTelemetry } from '../engine/request-telemetry.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import {
  executeToolOperation,
  McpAttribute,
  McpMetric,
  mcpDurationBuckets,
  toolErrorType,
} from './mcp-semantic-conventions.ts';

export interface OtelRequestTelemetryOptions {
  /** Default: the global tracer provider. */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /** Names `resources/read` spans with the resource's URI (high cardinality; off by default). */
  resourceUriInSpanName?: boolean;
  /** Records tool arguments and results on spans (they may hold secrets; off by default). */
  recordToolContent?: boolean;
}

const instrumentationScope = '@toolshed/mcp-core';

/** Reads trace context from `params._meta`, where the 2026-07-28 revision reserves its keys. */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** What every request of one kind shares: its span's name, and the attributes its span and its duration carry. */
interface RequestShape {
  readonly name: string;
  readonly attributes: Attributes;
}

/** Distinct request kinds remembered; past this (names a client made up, say) a shape is built for each request. */
const maxShapes = 1024;

function targetOf(request: ObservedRequest): string | undefined {
  const name = request.params?.name;
  return typeof name === 'string' && (request.method === 'tools/call' || request.method === 'prompts/get')
    ? name
    : undefined;
}

/** The span name and the attributes of a request, as the conventions give them, for one method, target and facts. */
function shapeOf(method: string, target: string | undefined, facts: RequestFacts): RequestShape {
  const attributes: Attributes = { [McpAttribute.methodName]: method };
  if (target !== undefined) {
    if (method === 'tools/call') {
      attributes[McpAttribute.toolName] = target;
      attributes[McpAttribute.operationName] = executeToolOperation;
    } else {
      attributes[McpAttribute.promptName] = target;
    }
  }
  if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
  if (facts.networkTransport !== undefined) attributes[McpAttribute.networkTransport] = facts.networkTransport;
  return { name: target === undefined ? method : `${method} ${target}`, attributes: Object.freeze(attributes) };
}

/**
 * Shapes built once per method, target, version and transport: a server
 * answers the same few kinds of request over and over, so the attribute
 * sets its spans start with and its durations are recorded under are
 * built once, not per call.
 */
function createShapes(): (method: string, target: string | undefined, facts: RequestFacts) => RequestShape {
  const shapes = new Map<string, RequestShape>();
  return (method, target, facts) => {
    const key = `${method}\n${target ?? ''}\n${facts.protocolVersion ?? ''}\n${facts.networkTransport ?? ''}`;
    let shape = shapes.get(key);
    if (shape === undefined) {
      shape = shapeOf(method, target, facts);
      if (shapes.size < maxShapes) shapes.set(key, shape);
    }
    return shape;
  };
}

/** `error.type` and the status message for an answer that failed, or undefined for one that did not. */
function failureOf(response: ObservedAnswer | undefined): { type: string; code?: string; message: string } | undefined {
  if (response === undefined) return undefined;
  if ('error' in response) {
    const code = String(response.error.code);
    return { type: code, code, message: response.error.message };
  }
  if ((response.result as { isError?: unknown }).isError === true) {
    return { type: toolErrorType, message: 'The tool reported an error' };
  }
  return undefined;
}

/**
 * Request telemetry on the OpenTelemetry API: a SERVER span per request,
 * named and attributed as the MCP semantic conventions say, continuing the
 * trace the caller put in `params._meta` and linking the ambient one (an
 * HTTP span, say) when they differ; and the operation and session duration
 * histograms with the conventions' buckets.
 *
 * @example
 * createMcpServer({ name: 'demo', version: '1.0.0', tools, telemetry: createOtelRequestTelemetry() });
 */
export function createOtelRequestTelemetry(
  options: OtelRequestTelemetryOptions = {},
): RequestTelemetry & { flush(): void } {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(instrumentationScope);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(instrumentationScope);
  const advice = { explicitBucketBoundaries: [...mcpDurationBuckets] };
  const operationDuration = meter.createHistogram(McpMetric.serverOperationDuration, {
    unit: 's',
    description: 'MCP request duration as observed on the receiver, from its arrival until its answer is sent.',
    advice,
  });
  const sessionDuration = meter.createHistogram(McpMetric.serverSessionDuration, {
    unit: 's',
    description: 'The duration of the MCP session as observed on the MCP server.',
    advice,
  });

  function parentOf(request: ObservedRequest): { parent: Context; links: Link[] } {
    const ambient = context.active();
    const meta = request.params?._meta;
    if (!isPlainObject(meta)) return { parent: ambient, links: [] };
    const parent = propagation.extract(ambient, meta, metaGetter);
    const ambientSpan = trace.getSpanContext(ambient);
    const links =
      ambientSpan !== undefined && ambientSpan.spanId !== trace.getSpanContext(parent)?.spanId
        ? [{ context: ambientSpan }]
        : [];
    return { parent, links };
  }

  const shapes = createShapes();

  /**
   * Spans that ended, waiting to be handed to the SDK with their end time.
   * Ending a span can set off the export of a whole batch (serializing it
   * takes milliseconds); done once the answer is on its way, that work no
   * longer holds up the answer it measures. The spans that end in one turn
   * of the event loop are handed over together, on the next.
   */
  let ended: { span: Span; endTime: number; attributes: Attributes | undefined; seconds: number }[] = [];
  const flush = () => {
    const batch = ended;
    ended = [];
    for (const { span, endTime, attributes, seconds } of batch) {
      span.end(endTime);
      if (attributes !== undefined) operationDuration.record(seconds, attributes);
    }
  };

  return {
    flush,
    async serve(request, facts, answer) {
      const started = performance.now();
      const { parent, links } = parentOf(request);
      const known = facts();
      const target = targetOf(request);
      let shape = shapes(request.method, target, known);
      const uri = request.params?.uri;
      const hasUri = typeof uri === 'string' && request.method.startsWith('resources/');
      const name = hasUri && options.resourceUriInSpanName === true ? `${request.method} ${uri}` : shape.name;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: shape.attributes, links }, parent);
      if (request.id !== undefined) span.setAttribute(McpAttribute.requestId, String(request.id));
      if (known.sessionId !== undefined) span.setAttribute(McpAttribute.sessionId, known.sessionId);
      if (hasUri) span.setAttribute(McpAttribute.resourceUri, uri);
      if (options.recordToolContent === true && request.method === 'tools/call') {
        span.setAttribute(McpAttribute.toolCallArguments, JSON.stringify(request.params?.arguments ?? {}));
      }
      let response: ObservedAnswer | undefined;
      try {
        const answered = await context.with(trace.setSpan(parent, span), answer);
        response = answered;
        return answered;
      } finally {
        // initialize fixes the version only as it is answered.
        if (request.method === 'initialize') {
          const settled = facts();
          shape = shapes(request.method, target, settled);
          if (settled.protocolVersion !== undefined) {
            span.setAttribute(McpAttribute.protocolVersion, settled.protocolVersion);
          }
          if (settled.sessionId !== undefined) span.setAttribute(McpAttribute.sessionId, settled.sessionId);
        }
        let recorded = shape.attributes;
        const failure = failureOf(response);
        if (failure !== undefined) {
          const failed: Attributes = { ...shape.attributes, [McpAttribute.errorType]: failure.type };
          span.setAttribute(McpAttribute.errorType, failure.type);
          if (failure.code !== undefined) {
            failed[McpAttribute.responseStatusCode] = failure.code;
            span.setAttribute(McpAttribute.responseStatusCode, failure.code);
          }
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
          recorded = failed;
        } else if (options.recordToolContent === true && response !== undefined && 'result' in response) {
          if (request.method === 'tools/call') {
            span.setAttribute(McpAttribute.toolCallResult, JSON.stringify(response.result));
          }
        }
        const endTime = performance.now();
        if (ended.length === 0) setImmediate(flush);
        // A call from this process (a host mounting the server) has no id: it is not a request this server
        // received, and the host counts it as its own.
        ended.push({
          span,
          endTime,
          attributes: request.id === undefined ? undefined : recorded,
          seconds: (endTime - started) / 1000,
        });
      }
    },
    sessionEnded(facts, seconds) {
      const attributes: Attributes = {};
      if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
      sessionDuration.record(seconds, attributes);
    },
  };
}
