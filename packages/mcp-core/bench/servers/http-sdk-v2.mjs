// The same echo tool on the official SDK v2: NodeStreamableHTTPServerTransport per session on node:http,
// behind its localhost Host/Origin guards, as its README shows. MODE=json sets enableJsonResponse.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const transports = new Map();
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

function newServer() {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the text unchanged.', inputSchema: z.object({ text: z.string() }) },
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
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  const sessionId = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport && req.method === 'POST' && body?.method === 'initialize') {
    transport = new NodeStreamableHTTPServerTransport({
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
