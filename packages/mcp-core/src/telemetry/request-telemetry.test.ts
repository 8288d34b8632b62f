import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import type { McpServer } from '../server/create-mcp-server.ts';
import { connectTestClient, type TestClient, type TestClientKind } from '../testing/connect-test-client.ts';
import { loadsOpenTelemetry } from '../testing/opentelemetry-load-probe.ts';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../testing/otlp-receiver.ts';
import { McpAttribute, McpMetric, mcpDurationBuckets } from './mcp-semantic-conventions.ts';
import { startTelemetry, stopTelemetry } from './process-telemetry.ts';

const stdioFixture = new URL('../__fixtures__/stdio-fixture-server.ts', import.meta.url).pathname;
const serverKind = 2;

let receiver: OtlpReceiver;
let server: McpServer;

/** The exporters read the standard variables from the process environment, as in production. */
function otelEnvironment(): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
  };
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  Object.assign(process.env, otelEnvironment(), { OTEL_SERVICE_NAME: 'fixture-under-test' });
  await startTelemetry({ serviceName: 'fixture', env: process.env });
  server = createFixtureServer();
});

afterAll(async () => {
  await server.close();
  await stopTelemetry();
  await receiver.close();
});

/** A caller's span context, as a W3C traceparent. */
function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

interface SdkV2Client {
  callTool(params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<{
    isError?: boolean;
  }>;
}

/** Calls a tool through the SDK v2 client with the caller's trace context in `_meta`, and waits for its span. */
async function tracedCall(
  client: TestClient,
  name: string,
  args: Record<string, unknown>,
): Promise<{ span: ReceivedSpan; caller: ReturnType<typeof callerContext> }> {
  const caller = callerContext();
  await (client.sdk as SdkV2Client).callTool({ name, arguments: args, _meta: { traceparent: caller.traceparent } });
  const spans = await receiver.waitForSpans((all) =>
    all.some((span) => span.traceId === caller.traceId && span.name === `tools/call ${name}`),
  );
  return { span: spans.find((span) => span.traceId === caller.traceId) as ReceivedSpan, caller };
}

describe('a SERVER span per request, continuing the caller’s trace from params._meta', () => {
  it.each([
    ['v2-modern', '2026-07-28'],
    ['v2-legacy', '2025-11-25'],
  ] as const)('%s client over HTTP', async (kind: TestClientKind, version) => {
    const client = await connectTestClient({ server }, { client: kind, transport: 'http' });
    try {
      const { span, caller } = await tracedCall(client, 'echo', { text: 'secret argument' });
      expect(span.parentSpanId).toBe(caller.spanId);
      expect(span.kind).toBe(serverKind);
      expect(span.attributes).toMatchObject({
        [McpAttribute.methodName]: 'tools/call',
        [McpAttribute.toolName]: 'echo',
        [McpAttribute.operationName]: 'execute_tool',
        [McpAttribute.protocolVersion]: version,
        [McpAttribute.networkTransport]: 'tcp',
      });
      expect(typeof span.attributes[McpAttribute.requestId]).toBe('string');
      expect(span.attributes).not.toHaveProperty(McpAttribute.errorType);
      // Arguments and results stay out unless the operator opts in.
      expect(JSON.stringify(span.attributes)).not.toContain('secret argument');
      expect(span.resource['service.name']).toBe('fixture-under-test');
      if (kind === 'v2-modern') expect(span.attributes).not.toHaveProperty(McpAttribute.sessionId);
      else expect(span.attributes[McpAttribute.sessionId]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await client.close();
    }
  });

  it('marks an isError result as error.type tool_error, with status ERROR', async () => {
    const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const { span } = await tracedCall(client, 'fail', { how: 'tool-error' });
      expect(span.attributes[McpAttribute.errorType]).toBe('tool_error');
      expect(span.status.code).toBe(2);
      expect(span.attributes).not.toHaveProperty(McpAttribute.networkTransport);
    } finally {
      await client.close();
    }
  });

  it('marks a JSON-RPC error with its code', async () => {
    const client = await connectTestClient({ server }, { client: 'v2-legacy', transport: 'memory' });
    try {
      const caller = callerContext();
      await expect(
        (client.sdk as SdkV2Client).callTool({
          name: 'missing',
          arguments: {},
          _meta: { traceparent: caller.traceparent },
        }),
      ).rejects.toThrow();
      const [span] = (await receiver.waitForSpans((all) => all.some((s) => s.traceId === caller.traceId))).filter(
        (s) => s.traceId === caller.traceId,
      );
      expect(span?.name).toBe('tools/call missing');
      expect(span?.attributes[McpAttribute.errorType]).toBe('-32602');
      expect(span?.attributes[McpAttribute.responseStatusCode]).toBe('-32602');
      expect(span?.status).toMatchObject({ code: 2, message: expect.stringContaining('Unknown tool') });
    } finally {
      await client.close();
    }
  });

  it('names a span by its method alone when it has no tool or prompt', async () => {
    const client = await connectTestClient({ server }, { client: 'v2-legacy', transport: 'memory' });
    try {
      await client.listTools();
      const spans = await receiver.waitForSpans((all) => all.some((span) => span.name === 'initialize'));
      const initialize = spans.find((span) => span.name === 'initialize');
      expect(initialize?.attributes[McpAttribute.protocolVersion]).toBe('2025-11-25');
      await receiver.waitForSpans((all) => all.some((span) => span.name === 'tools/list'));
    } finally {
      await client.close();
    }
  });
});

describe('a 2026-era call retried with the answers it was asked for (multi round-trip)', () => {
  // The conventions (semantic-conventions-genai, docs/gen-ai/mcp.md) make the MCP client's span the parent of the
  // server's span and link only the ambient (transport) context; they define no link between the attempts of a
  // multi round-trip request, which the 2026-07-28 revision makes independent requests with their own ids. So each
  // attempt continues the trace its own `_meta` carries, and the caller's trace is what ties them together.
  it('gives each attempt its own SERVER span in the caller’s trace, the first not an error', async () => {
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: () => ({ action: 'accept', content: { confirm: true } }),
      },
    );
    const caller = callerContext();
    try {
      await (client.sdk as SdkV2Client).callTool({
        name: 'confirm_delete',
        arguments: { target: 'notes.txt' },
        _meta: { traceparent: caller.traceparent },
      });
    } finally {
      await client.close();
    }
    const attempts = (
      await receiver.waitForSpans(
        (all) =>
          all.filter((span) => span.traceId === caller.traceId && span.name === 'tools/call confirm_delete').length >=
          2,
      )
    ).filter((span) => span.traceId === caller.traceId);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.parentSpanId).toBe(caller.spanId);
      expect(attempt.attributes).toMatchObject({
        [McpAttribute.toolName]: 'confirm_delete',
        [McpAttribute.protocolVersion]: '2026-07-28',
      });
      // Asking for input is not a failure; and in memory there is no transport context to link.
      expect(attempt.attributes).not.toHaveProperty(McpAttribute.errorType);
      expect(attempt.status.code ?? 0).toBe(0);
      expect(attempt.links).toEqual([]);
    }
    const [first, second] = attempts.map((attempt) => attempt.attributes[McpAttribute.requestId]);
    expect(first).not.toBe(second);
  });
});

describe('over stdio', () => {
  it.each(['v2-modern', 'v2-legacy'] as const)('%s: network.transport is pipe', async (kind) => {
    const client = await connectTestClient(
      { bin: [stdioFixture], env: { ...process.env, ...otelEnvironment(), OTEL_SERVICE_NAME: 'stdio-fixture' } },
      { client: kind, transport: 'stdio' },
    );
    let caller: ReturnType<typeof callerContext>;
    try {
      caller = callerContext();
      await (client.sdk as SdkV2Client).callTool({
        name: 'echo',
        arguments: { text: 'x' },
        _meta: { traceparent: caller.traceparent },
      });
    } finally {
      // The child sends its buffered spans as it shuts down.
      await client.close();
    }
    const spans = await receiver.waitForSpans((all) => all.some((span) => span.traceId === caller.traceId));
    const span = spans.find((each) => each.traceId === caller.traceId);
    expect(span?.resource['service.name']).toBe('stdio-fixture');
    expect(span?.parentSpanId).toBe(caller.spanId);
    expect(span?.attributes[McpAttribute.networkTransport]).toBe('pipe');
  });
});

describe('metrics', () => {
  it('records mcp.server.operation.duration in seconds with the conventions’ buckets', async () => {
    const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
    try {
      await client.callTool('echo', { text: 'count me' });
    } finally {
      await client.close();
    }
    const point = await new Promise<(typeof receiver.histogramPoints)[number]>((resolve) => {
      const poll = setInterval(() => {
        const found = receiver.histogramPoints.find(
          (each) =>
            each.metric === McpMetric.serverOperationDuration && each.attributes[McpAttribute.toolName] === 'echo',
        );
        if (found !== undefined) {
          clearInterval(poll);
          resolve(found);
        }
      }, 50);
    });
    expect(point.unit).toBe('s');
    expect(point.explicitBounds).toEqual(mcpDurationBuckets);
    expect(point.count).toBeGreaterThan(0);
    expect(point.attributes).toMatchObject({ [McpAttribute.methodName]: 'tools/call' });
    expect(point.attributes).not.toHaveProperty(McpAttribute.requestId);
    expect(point.attributes).not.toHaveProperty(McpAttribute.sessionId);
  });
});

describe('with telemetry off', () => {
  const quiet = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));

  it('loads no @opentelemetry module at all', async () => {
    expect(await loadsOpenTelemetry({ bin: [stdioFixture], env: quiet })).toBe(false);
  });

  it('OTEL_SDK_DISABLED=true is a hard off switch, whatever else is set', async () => {
    const env = { ...process.env, ...otelEnvironment(), OTEL_SDK_DISABLED: 'true' };
    expect(await loadsOpenTelemetry({ bin: [stdioFixture], env })).toBe(false);
  });

  it('the same probe sees the SDK when OTEL_* turns it on', async () => {
    expect(await loadsOpenTelemetry({ bin: [stdioFixture], env: { ...process.env, ...otelEnvironment() } })).toBe(true);
  });
});
