import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A bare legacy Streamable HTTP server on 127.0.0.1 whose tools misbehave
 * as named: `garbage` answers HTML labelled as JSON, `huge` answers
 * `hugeBytes` of JSON, `huge_event` sends one event of that size on an event
 * stream, `silent` never answers, `echo` answers `ok`.
 */
export async function startScriptedHttpServer(hugeBytes: number): Promise<ScriptedHttpServer> {
  const waiting = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: number;
        method: string;
        params?: { name?: string };
      };
      const json = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const answer = (result: unknown) => json(200, { jsonrpc: '2.0', id: message.id, result });
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      switch (message.method) {
        case 'initialize':
          answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'raw', version: '1' },
          });
          return;
        case 'tools/list':
          answer({
            tools: ['echo', 'garbage', 'huge', 'huge_event', 'silent'].map((name) => ({
              name,
              description: `Behaves as named (${name}).`,
              inputSchema: { type: 'object', properties: {} },
            })),
          });
          return;
        case 'tools/call':
          switch (message.params?.name) {
            case 'echo':
              answer({ content: [{ type: 'text', text: 'ok' }] });
              return;
            case 'garbage':
              response.writeHead(200, { 'content-type': 'application/json' }).end('<html>Bad Gateway</html>');
              return;
            case 'huge':
              answer({ content: [{ type: 'text', text: 'h'.repeat(hugeBytes) }] });
              return;
            case 'huge_event':
              response.writeHead(200, { 'content-type': 'text/event-stream' });
              response.write(`data: {"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
              response.write('h'.repeat(hugeBytes));
              waiting.add(response);
              return;
            default:
              waiting.add(response);
              return;
          }
        default:
          json(400, { jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Method not found' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      for (const response of waiting) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
