import type { BinUnderTest } from './check-bin.ts';
import { connectTestClient, expectedProtocolVersion, type TestClientKind } from './connect-test-client.ts';
import type { OtlpReceiver, ReceivedSpan } from './otlp-receiver.ts';

let started = 0;

/**
 * Starts a bin with the standard `OTEL_*` variables pointing at `receiver`,
 * lists its tools through an official client, and returns what is wrong with
 * the `tools/list` span it sent (empty when it is right): a `SERVER` span from
 * this bin's own process, with the method, the protocol version and the
 * transport the conventions name, and `mcp.session.id` only on a 2025-era
 * HTTP session.
 *
 * @example
 * it.each(binTestCases)('%s over %s: spans', async (client, transport) =>
 *   expect(await binTelemetryProblems({ bin: [binPath] }, client, transport, receiver)).toEqual([]));
 */
export async function binTelemetryProblems(
  target: BinUnderTest,
  client: TestClientKind,
  transport: 'stdio' | 'http',
  receiver: OtlpReceiver,
): Promise<string[]> {
  started += 1;
  const serviceName = `bin-under-test-${process.pid}-${started}`;
  const env = {
    ...(target.env ?? process.env),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: serviceName,
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OTEL_METRICS_EXPORTER: 'none',
  };
  const connection = await connectTestClient({ bin: target.bin, env }, { client, transport });
  try {
    await connection.listTools();
  } finally {
    // The bin sends the spans it still holds as it shuts down.
    await connection.close();
  }
  const spans = await receiver.waitForSpans((all) =>
    all.some((span) => span.resource['service.name'] === serviceName && span.name === 'tools/list'),
  );
  // A bin that is a host also serves the servers it mounts in memory: any one of its tools/list spans may be the client's.
  const candidates = spans.filter(
    (each) => each.resource['service.name'] === serviceName && each.name === 'tools/list',
  );
  const problemsOf = (span: ReceivedSpan): string[] => {
    const attributes = span.attributes;
    const problems: string[] = [];
    const expect = (what: string, actual: unknown, wanted: unknown) => {
      if (actual !== wanted) problems.push(`${what} is ${JSON.stringify(actual)}, not ${JSON.stringify(wanted)}`);
    };
    expect('the span kind', span.kind, 2);
    expect('mcp.method.name', attributes['mcp.method.name'], 'tools/list');
    expect('mcp.protocol.version', attributes['mcp.protocol.version'], expectedProtocolVersion(client));
    expect('network.transport', attributes['network.transport'], transport === 'stdio' ? 'pipe' : 'tcp');
    const hasSession = typeof attributes['mcp.session.id'] === 'string';
    expect('whether mcp.session.id is set', hasSession, transport === 'http' && client !== 'v2-modern');
    return problems;
  };
  const found = candidates.map(problemsOf);
  if (found.some((problems) => problems.length === 0)) return [];
  return found[0] ?? ['no tools/list span arrived'];
}
