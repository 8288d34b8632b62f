import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpAttribute, McpMetric, startTelemetry, stopTelemetry } from '@toolshed/mcp-core';
import {
  connectTestClient,
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
  type TestClientKind,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostConfig } from './config/load-config.ts';
import { auditPage } from './console/audit-page.ts';
import { createHost, type Host } from './create-host.ts';
import { loadHostTelemetry } from './telemetry/host-telemetry.ts';

const filesystemBin = new URL('./src/cli.ts', import.meta.resolve('@toolshed/server-filesystem/package.json')).pathname;
const serverKind = 2;
const clientKind = 3;

let receiver: OtlpReceiver;
let directory: string;
let workspace: string;
let host: Host;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
  };
  Object.assign(process.env, otel, { OTEL_SERVICE_NAME: 'toolshed-under-test' });
  await startTelemetry({ serviceName: 'toolshed', env: process.env });
  await loadHostTelemetry();
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-telemetry-'));
  workspace = join(directory, 'workspace');
  mkdirSync(workspace);
  host = createHost(
    parseHostConfig(
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') }, approval: { mode: 'elicit' } },
        mcpServers: {
          // One of ours mounted in this process, and the same server as a foreign child over stdio.
          files: { package: '@toolshed/server-filesystem', options: { directories: [workspace] } },
          fsbin: {
            command: process.execPath,
            args: [filesystemBin, workspace],
            env: { ...otel, OTEL_SERVICE_NAME: 'filesystem-child' },
          },
        },
      }),
      join(directory, 'toolshed.json'),
    ),
    { log: () => {} },
  );
  await host.start();
});

afterAll(async () => {
  await host?.close();
  await stopTelemetry();
  await receiver.close();
  rmSync(directory, { recursive: true, force: true });
});

function callerContext() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

interface SdkV2Client {
  callTool(params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<{
    isError?: boolean;
  }>;
}

/** Calls a host tool with the caller's trace in `_meta` and resolves the trace's spans once `expected` are in. */
async function tracedCall(
  kind: TestClientKind,
  name: string,
  args: Record<string, unknown>,
  expected: number,
): Promise<{ spans: ReceivedSpan[]; caller: ReturnType<typeof callerContext>; isError: boolean }> {
  const client = await connectTestClient(
    { server: host.server },
    { client: kind, transport: 'http', onElicit: () => ({ action: 'accept', content: { confirmed: true } }) },
  );
  const caller = callerContext();
  let isError = false;
  try {
    const result = await (client.sdk as SdkV2Client).callTool({
      name,
      arguments: args,
      _meta: { traceparent: caller.traceparent },
    });
    isError = result.isError === true;
  } finally {
    await client.close();
  }
  const inTrace = (all: readonly ReceivedSpan[]) => all.filter((span) => span.traceId === caller.traceId);
  const spans = inTrace(await receiver.waitForSpans((all) => inTrace(all).length >= expected));
  return { spans, caller, isError };
}

function only(spans: ReceivedSpan[], predicate: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(predicate);
  expect(found.map((span) => span.name)).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe('one trace from the client through the host to its upstreams', () => {
  it.each([
    ['v2-modern', '2026-07-28'],
    ['v2-legacy', '2025-11-25'],
  ] as const)('%s: a mounted package, behind an approval', async (kind, version) => {
    const path = join(workspace, `${kind}.txt`);
    // The host's SERVER span, its approval wait, its CLIENT span and the mounted server's own span; in the 2026
    // era the approval question ends a first round (its span and its approval span, `asked`), and the client's
    // retry with the answer runs the call.
    const rounds = kind === 'v2-modern' ? 2 : 1;
    const { spans, caller, isError } = await tracedCall(
      kind,
      'files_write_file',
      { path, content: 'x' },
      2 * rounds + 2,
    );
    expect(isError).toBe(false);
    const upstreamCall = only(spans, (span) => span.kind === clientKind);
    expect(upstreamCall.name).toBe('tools/call write_file');
    const roundSpans = spans.filter((span) => span.kind === serverKind && span.name === 'tools/call files_write_file');
    expect(roundSpans).toHaveLength(rounds);
    for (const round of roundSpans) expect(round.parentSpanId).toBe(caller.spanId);
    const served = only(roundSpans, (span) => span.spanId === upstreamCall.parentSpanId);
    expect(served.resource['service.name']).toBe('toolshed-under-test');
    expect(served.attributes).toMatchObject({
      [McpAttribute.methodName]: 'tools/call',
      [McpAttribute.toolName]: 'files_write_file',
      [McpAttribute.operationName]: 'execute_tool',
      [McpAttribute.protocolVersion]: version,
      [McpAttribute.networkTransport]: 'tcp',
      'toolshed.server': 'files',
      'toolshed.outcome': 'ok',
    });
    if (kind === 'v2-modern') expect(served.attributes).not.toHaveProperty(McpAttribute.sessionId);
    else expect(typeof served.attributes[McpAttribute.sessionId]).toBe('string');
    const approval = only(
      spans,
      (span) => span.name === 'approval files_write_file' && span.parentSpanId === served.spanId,
    );
    expect(approval.attributes['toolshed.approval']).toBe('approved');
    const asked = spans.filter((span) => span.attributes['toolshed.approval'] === 'asked');
    expect(asked).toHaveLength(rounds - 1);
    const mounted = only(spans, (span) => span.kind === serverKind && span.name === 'tools/call write_file');
    expect(mounted.parentSpanId).toBe(upstreamCall.spanId);
    // The audit row names the trace, so an operator goes from an audit line to its trace.
    const lines = readFileSync(join(directory, 'audit.jsonl'), 'utf8').trim().split('\n');
    const rows = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((each) => each.trace_id === caller.traceId);
    // Each attempt that ended to ask is a row of its own, ended; the last attempt ran the call.
    expect(rows.map((each) => each.outcome)).toEqual([...Array(rounds - 1).fill('input_required'), 'ok']);
    expect(rows.at(-1)).toMatchObject({ tool: 'files_write_file', outcome: 'ok' });
    // So does the store's row, which the console's Audit page finds by the trace id.
    const { records } = await host.store().audit.query({ traceId: caller.traceId, limit: 10 });
    expect(records.find((record) => record.outcome === 'ok')).toMatchObject({
      tool: 'files_write_file',
      trace_id: caller.traceId,
    });
    const page = String(await auditPage(host, new URLSearchParams({ trace: caller.traceId })));
    expect(page).toContain(`<td class="trace-id">${caller.traceId}</td>`);
    expect(page).toContain(`of ${records.length} matching`);
  });

  it('a foreign stdio server receives a traceparent whose parent is the host’s CLIENT span', async () => {
    const { spans, caller } = await tracedCall('v2-modern', 'fsbin_list_directory', { path: workspace }, 3);
    const served = only(spans, (span) => span.name === 'tools/call fsbin_list_directory');
    expect(served.parentSpanId).toBe(caller.spanId);
    const upstreamCall = only(spans, (span) => span.kind === clientKind);
    expect(upstreamCall.parentSpanId).toBe(served.spanId);
    expect(upstreamCall.attributes['toolshed.server']).toBe('fsbin');
    const child = only(spans, (span) => span.resource['service.name'] === 'filesystem-child');
    expect(child.name).toBe('tools/call list_directory');
    expect(child.kind).toBe(serverKind);
    expect(child.parentSpanId).toBe(upstreamCall.spanId);
    expect(child.attributes[McpAttribute.networkTransport]).toBe('pipe');
  });

  it('an isError result gives error.type tool_error on the host’s span and its call upstream', async () => {
    const { spans, isError } = await tracedCall(
      'v2-modern',
      'fsbin_read_text_file',
      { path: join(workspace, 'missing.txt') },
      3,
    );
    expect(isError).toBe(true);
    const served = only(spans, (span) => span.name === 'tools/call fsbin_read_text_file');
    expect(served.attributes[McpAttribute.errorType]).toBe('tool_error');
    expect(served.status.code).toBe(2);
    expect(only(spans, (span) => span.kind === clientKind).attributes[McpAttribute.errorType]).toBe('tool_error');
  });

  it('records mcp.client.operation.duration and the host’s per-server outcomes', async () => {
    const points = await new Promise<typeof receiver.histogramPoints>((resolve) => {
      const poll = setInterval(() => {
        const names = new Set(receiver.histogramPoints.map((point) => point.metric));
        if (names.has(McpMetric.clientOperationDuration) && names.has('toolshed.host.call.duration')) {
          clearInterval(poll);
          resolve(receiver.histogramPoints);
        }
      }, 50);
    });
    const client = points.find(
      (point) => point.metric === McpMetric.clientOperationDuration && point.attributes['toolshed.server'] === 'files',
    );
    expect(client?.attributes).toMatchObject({ [McpAttribute.toolName]: 'write_file' });
    const calls = points.filter((point) => point.metric === 'toolshed.host.call.duration');
    expect(calls.map((point) => point.attributes['toolshed.outcome'])).toContain('ok');
  });
});
