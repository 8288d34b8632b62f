import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

export interface SdkHttpServer {
  url: string;
  /** Calls of slow_count that saw their cancellation. */
  cancelled: number;
  /** Calls of delete_everything that ran. */
  deleted: number;
  /** Calls of note_then_ask that reached their note (a side effect before their question). */
  noted: number;
  close(): Promise<void>;
}

function buildServer(state: { cancelled: number; deleted: number; noted: number }): McpServer {
  const server = new McpServer({ name: 'sdk-http-fixture', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'slow_count',
    {
      description: 'Counts to `to`, one step every `stepMs`, reporting progress.',
      inputSchema: { to: z.number(), stepMs: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ to, stepMs }, extra) => {
      for (let step = 1; step <= to; step++) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        if (extra.signal.aborted) {
          state.cancelled += 1;
          return { content: [{ type: 'text', text: 'cancelled' }] };
        }
        const progressToken = extra._meta?.progressToken;
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: to },
          });
        }
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );
  server.registerTool(
    'delete_everything',
    { description: 'Pretends to delete everything (no annotations: may be destructive).', inputSchema: {} },
    async () => {
      state.deleted += 1;
      return { content: [{ type: 'text', text: 'deleted' }] };
    },
  );
  server.registerTool(
    'note_then_ask',
    {
      description: 'Writes a note, then asks the user whether to keep it (a legacy server free to act before asking).',
      inputSchema: { note: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ note }) => {
      state.noted += 1;
      const answer = await server.server.elicitInput({
        message: `Keep the note "${note}"?`,
        requestedSchema: { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] },
      });
      const keep = answer.action === 'accept' && answer.content?.keep === true;
      return { content: [{ type: 'text', text: keep ? `kept ${note}` : `dropped ${note}` }] };
    },
  );
  return server;
}

/** A foreign Streamable HTTP server built with the official SDK, on 127.0.0.1, one session per client. */
export async function startSdkHttpServer(port = 0): Promise<SdkHttpServer> {
  const state = { cancelled: 0, deleted: 0, noted: 0 };
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer(async (request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          if (transport !== undefined) transports.set(id, transport);
        },
      });
      await buildServer(state).connect(transport);
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    get cancelled() {
      return state.cancelled;
    },
    get deleted() {
      return state.deleted;
    },
    get noted() {
      return state.noted;
    },
    async close() {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
