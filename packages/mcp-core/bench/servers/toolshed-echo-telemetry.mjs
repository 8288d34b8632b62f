// The echo server on the built package, started as a bin starts: telemetry first, when OTEL_* asks for it.
import * as z from 'zod';
import { createMcpServer, defineTool, serveStdio, startTelemetry } from '../../dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});
await startTelemetry({ serviceName: 'toolshed-echo', env: process.env });
export default serveStdio(createMcpServer({ name: 'toolshed-echo', version: '1.0.0', tools: [echo] }));
