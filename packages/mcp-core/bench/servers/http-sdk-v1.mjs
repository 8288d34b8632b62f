// The same echo tool on the official SDK v1: StreamableHTTPServerTransport per session on node:http,
// wired as its documentation shows. MODE=json sets enableJsonResponse.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const transports = new Map();

function newServer() {
  const server = new McpServer({ name: 'sdk-v1-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text unchanged.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: process.env.MODE !== 'sse',
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`READY http://127.0.0.1:${http.address().port}/mcp\n`));
