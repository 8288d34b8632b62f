/**
 * The fixture server as a real process on stdio, for transport tests. Extra
 * tools exercise stdout hygiene and backpressure.
 */
import * as z from 'zod';
import { serveStdio } from '../cli/serve-stdio.ts';
import { startTelemetry } from '../telemetry/process-telemetry.ts';
import { defineTool } from '../tools/define-tool.ts';
import { createStdioServerTransport } from '../transports/stdio-server-transport.ts';
import { createFixtureServer } from './fixture-tools.ts';

const noisy = defineTool({
  name: 'noisy',
  description: 'Writes to every console method, which must not reach stdout.',
  input: z.object({}),
  run() {
    console.log('log line');
    console.info('info line');
    console.debug('debug line');
    console.warn('warn line');
    return 'quiet on stdout';
  },
});

const big = defineTool({
  name: 'big',
  description: 'Returns `kib` KiB of text.',
  input: z.object({ kib: z.number().int().min(1).max(4096) }),
  run: ({ kib }) => 'x'.repeat(kib * 1024),
});

// Spans and metrics when the OTEL_* variables ask for them, as a bin would.
await startTelemetry({ serviceName: 'fixture', env: process.env });
const server = createFixtureServer({ onServerError: () => {} });
server.addTool(noisy);
server.addTool(big);

const maxLineBytes = process.env.FIXTURE_MAX_LINE_BYTES;
if (maxLineBytes === undefined) {
  await serveStdio(server);
} else {
  // The same as serveStdio, with a small line cap to test it.
  const connection = await server.connect(createStdioServerTransport({ maxLineBytes: Number(maxLineBytes) }));
  await connection.closed;
}
