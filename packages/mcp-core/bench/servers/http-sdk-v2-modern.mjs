// The same echo tool on the official SDK v2's 2026-07-28 entry: createMcpHandler (a fresh server per request,
// as that entry builds them) through the node adapter on node:http, behind the same localhost Host/Origin guards
// as http-sdk-v2.mjs. Stateless: no sessions; MODE=json|sse picks the response form the handler uses.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk-v2-echo', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Returns the text unchanged.', inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    return server;
  },
  { responseMode: process.env.MODE === 'sse' ? 'sse' : 'auto' },
);
const serve = toNodeHandler(handler);

const http = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void serve(req, res);
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`READY http://127.0.0.1:${http.address().port}/mcp\n`));
// Profiling runs (BENCH_NODE_ARGS=--cpu-prof) stop with SIGINT so the profile is written.
process.once('SIGINT', () => process.exit(0));
