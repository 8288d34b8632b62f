import {
  type Attributes,
  type Context,
  context,
  type Link,
  type MeterProvider,
  metrics,
  propagation,
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

/** The request's target and the attributes both its span and its duration carry. */
function describeRequest(
  request: ObservedRequest,
  facts: RequestFacts,
): { target: string | undefined; attributes: Attributes } {
  const params = request.params ?? {};
  const attributes: Attributes = { [McpAttribute.methodName]: request.method };
  let target: string | undefined;
  if (request.method === 'tools/call' && typeof params.name === 'string') {
    target = params.name;
    attributes[McpAttribute.toolName] = params.name;
    attributes[McpAttribute.operationName] = executeToolOperation;
  } else if (request.method === 'prompts/get' && typeof params.name === 'string') {
    target = params.name;
    attributes[McpAttribute.promptName] = params.name;
  }
  if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
  if (facts.networkTransport !== undefined) attributes[McpAttribute.networkTransport] = facts.networkTransport;
  return { target, attributes };
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
export function createOtelRequestTelemetry(options: OtelRequestTelemetryOptions = {}): RequestTelemetry {
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

  return {
    async serve(request, facts, answer) {
      const started = performance.now();
      const { parent, links } = parentOf(request);
      const known = facts();
      const { target, attributes } = describeRequest(request, known);
      const spanAttributes: Attributes = { ...attributes };
      if (request.id !== undefined) spanAttributes[McpAttribute.requestId] = String(request.id);
      if (known.sessionId !== undefined) spanAttributes[McpAttribute.sessionId] = known.sessionId;
      const uri = request.params?.uri;
      const hasUri = typeof uri === 'string' && request.method.startsWith('resources/');
      if (hasUri) spanAttributes[McpAttribute.resourceUri] = uri;
      if (options.recordToolContent === true && request.method === 'tools/call') {
        spanAttributes[McpAttribute.toolCallArguments] = JSON.stringify(request.params?.arguments ?? {});
      }
      const name =
        target !== undefined
          ? `${request.method} ${target}`
          : hasUri && options.resourceUriInSpanName === true
            ? `${request.method} ${uri}`
            : request.method;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: spanAttributes, links }, parent);
      let response: ObservedAnswer | undefined;
      try {
        const answered = await context.with(trace.setSpan(parent, span), answer);
        response = answered;
        return answered;
      } finally {
        // initialize fixes the version only as it is answered.
        const settled = request.method === 'initialize' ? facts() : known;
        if (settled.protocolVersion !== undefined) {
          attributes[McpAttribute.protocolVersion] = settled.protocolVersion;
          span.setAttribute(McpAttribute.protocolVersion, settled.protocolVersion);
        }
        if (settled.sessionId !== undefined) span.setAttribute(McpAttribute.sessionId, settled.sessionId);
        const failure = failureOf(response);
        if (failure !== undefined) {
          attributes[McpAttribute.errorType] = failure.type;
          span.setAttribute(McpAttribute.errorType, failure.type);
          if (failure.code !== undefined) {
            attributes[McpAttribute.responseStatusCode] = failure.code;
            span.setAttribute(McpAttribute.responseStatusCode, failure.code);
          }
          span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
        } else if (options.recordToolContent === true && response !== undefined && 'result' in response) {
          if (request.method === 'tools/call') {
            span.setAttribute(McpAttribute.toolCallResult, JSON.stringify(response.result));
          }
        }
        span.end();
        // A call from this process (a host mounting the server) has no id: it is not a request this server
        // received, and the host counts it as its own.
        if (request.id !== undefined) operationDuration.record((performance.now() - started) / 1000, attributes);
      }
    },
    sessionEnded(facts, seconds) {
      const attributes: Attributes = {};
      if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
      sessionDuration.record(seconds, attributes);
    },
  };
}
