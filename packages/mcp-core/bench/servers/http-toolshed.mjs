// The echo tool served over Streamable HTTP by the built mcp-core; MODE=json|sse picks the response form.
import * as z from 'zod';
import { createMcpServer, defineTool, serveHttp } from '../../dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});
const server = createMcpServer({ name: 'toolshed-echo', version: '1.0.0', tools: [echo] });
const http = await serveHttp(server, {
  responseMode: process.env.MODE === 'sse' ? 'sse' : 'json',
  maxSessions: 10_000,
});
process.stdout.write(`READY ${http.url}\n`);
// Profiling runs (BENCH_NODE_ARGS=--cpu-prof) stop with SIGINT so the profile is written.
process.once('SIGINT', () => process.exit(0));
