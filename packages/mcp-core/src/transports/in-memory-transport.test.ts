import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { defineTool } from '../tools/define-tool.ts';
import { createInMemoryTransportPair } from './in-memory-transport.ts';

describe('createInMemoryTransportPair', () => {
  it("hands a server's question during a call to the client with that call's id", async () => {
    const server = createMcpServer({
      name: 'asks',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'ask',
          description: 'Asks the user to confirm.',
          input: z.object({}),
          run: async (_args, context) => ((await context.confirm('Go ahead?')).confirmed ? 'yes' : 'no'),
        }),
      ],
    });
    const [client, serverSide] = createInMemoryTransportPair();
    await server.connect(serverSide);
    const received: { message: { id?: unknown; method?: string }; extra: unknown }[] = [];
    client.onmessage = (message, extra) => {
      received.push({ message: message as { id?: unknown; method?: string }, extra });
      const request = message as { id?: number; method?: string };
      if (request.method === 'elicitation/create') {
        void client.send({
          jsonrpc: '2.0',
          id: request.id ?? 0,
          result: { action: 'accept', content: { confirmed: true } },
        });
      }
    };
    await client.start();
    await client.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 't', version: '1' },
      },
    });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: 'call-7', method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await expect.poll(() => received.find((entry) => entry.message.id === 'call-7')).toBeDefined();
    const question = received.find((entry) => entry.message.method === 'elicitation/create');
    expect(question?.extra).toEqual({ relatedRequestId: 'call-7' });
    await server.close();
  });
});
