// The echo server on the built package, started as a bin starts: telemetry first, when OTEL_* asks for it. Its second
// tool reads a file, for the cost of telemetry beside a call that does some real work.
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { createMcpServer, defineTool, serveStdio, startTelemetry } from '../../dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});
const readText = defineTool({
  name: 'read_text',
  description: "Returns a file's text.",
  input: z.object({ path: z.string() }),
  run: ({ path }) => readFile(path, 'utf8'),
});
await startTelemetry({ serviceName: 'toolshed-echo', env: process.env });
export default serveStdio(createMcpServer({ name: 'toolshed-echo', version: '1.0.0', tools: [echo, readText] }));
