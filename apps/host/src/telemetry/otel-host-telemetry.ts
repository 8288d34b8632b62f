import { type Attributes, context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { executeToolOperation, McpAttribute, McpMetric, mcpDurationBuckets, toolErrorType } from '@toolshed/mcp-core';
import type { HostTelemetry } from './host-telemetry.ts';

/**
 * The host's own attributes. The `mcp.*` and `gen_ai.*` namespaces belong to
 * the semantic conventions, so what they do not define carries our prefix.
 */
export const HostAttribute = {
  server: 'toolshed.server',
  outcome: 'toolshed.outcome',
  approval: 'toolshed.approval',
} as const;

export const hostCallDuration = 'toolshed.host.call.duration';

const scope = '@toolshed/host';

/** `error.type` for a failed upstream call: the JSON-RPC code when there is one. */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') return String(code);
  if ((error as { name?: unknown } | undefined)?.name === 'AbortError') return 'cancelled';
  return '_OTHER';
}

/** The host's telemetry on the OpenTelemetry API, through the providers `startTelemetry` registered. */
export function createOtelHostTelemetry(): HostTelemetry {
  const tracer = trace.getTracer(scope);
  const meter = metrics.getMeter(scope);
  const advice = { explicitBucketBoundaries: [...mcpDurationBuckets] };
  const clientDuration = meter.createHistogram(McpMetric.clientOperationDuration, {
    unit: 's',
    description: 'The duration of an MCP request as observed on the sender, from its sending until its answer.',
    advice,
  });
  const callDuration = meter.createHistogram(hostCallDuration, {
    unit: 's',
    description:
      "A host tool call's whole duration (approval, rate limit and upstream call), by server, tool and outcome.",
    advice,
  });
  return {
    async upstreamCall(facts, run) {
      const started = performance.now();
      const attributes: Attributes = {
        [McpAttribute.methodName]: 'tools/call',
        [McpAttribute.toolName]: facts.tool,
        [McpAttribute.operationName]: executeToolOperation,
        [HostAttribute.server]: facts.server,
      };
      const span = tracer.startSpan(`tools/call ${facts.tool}`, { kind: SpanKind.CLIENT, attributes });
      const active = trace.setSpan(context.active(), span);
      const traceContext: Record<string, string> = {};
      propagation.inject(active, traceContext);
      try {
        const result = await context.with(active, () => run(traceContext));
        if ((result as { isError?: unknown } | undefined)?.isError === true) {
          attributes[McpAttribute.errorType] = toolErrorType;
          span.setAttribute(McpAttribute.errorType, toolErrorType);
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'The tool reported an error' });
        }
        return result;
      } catch (error) {
        const type = errorTypeOf(error);
        attributes[McpAttribute.errorType] = type;
        span.setAttribute(McpAttribute.errorType, type);
        if (type !== '_OTHER' && type !== 'cancelled') span.setAttribute(McpAttribute.responseStatusCode, type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
        clientDuration.record((performance.now() - started) / 1000, attributes);
      }
    },
    async approvalWait(tool, signal, run) {
      const span = tracer.startSpan(`approval ${tool}`, { kind: SpanKind.INTERNAL });
      // The question may end the round instead of being answered in it: the attempt is then aborted.
      const asked = () => {
        span.setAttribute(HostAttribute.approval, 'asked');
        span.end();
      };
      signal.addEventListener('abort', asked, { once: true });
      try {
        const result = await context.with(trace.setSpan(context.active(), span), run);
        span.setAttribute(HostAttribute.approval, result.approval);
        return result;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        signal.removeEventListener('abort', asked);
        if (span.isRecording()) span.end();
      }
    },
    callEnded(facts, seconds) {
      const attributes: Attributes = {
        [HostAttribute.server]: facts.server,
        [McpAttribute.toolName]: facts.tool,
        [HostAttribute.outcome]: facts.outcome,
      };
      trace
        .getActiveSpan()
        ?.setAttributes({ [HostAttribute.server]: facts.server, [HostAttribute.outcome]: facts.outcome });
      callDuration.record(seconds, attributes);
    },
    traceId() {
      return trace.getActiveSpan()?.spanContext().traceId;
    },
  };
}
