import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { AuthInfo, CallContext } from '../engine/call-context.ts';
import type { JsonRpcPayload } from '../messages/jsonrpc-message.ts';
import { definePrompt } from '../prompts/define-prompt.ts';
import { MetaKey } from '../protocol/meta-keys.ts';
import { defineResource } from '../resources/define-resource.ts';
import { createMcpServer, type McpServer } from '../server/create-mcp-server.ts';
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

const customer: AuthInfo = {
  subject: 'user-3',
  scopes: ['orders:read'],
  clientId: 'shop-app',
  expiresAt: 2_000_000_000,
  claims: { sub: 'user-3', customer_id: 3 },
};

/** What a handler saw of its caller, as plain data. */
function identityOf(context: CallContext): string {
  return JSON.stringify(context.auth ?? null);
}

function identityServer(): McpServer {
  return createMcpServer({
    name: 'identity',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Says who is calling.',
        input: z.object({}),
        run: (_args, call) => identityOf(call),
      }),
      defineTool({
        name: 'confirm_then_whoami',
        description: 'Asks for a yes, then says who is calling.',
        input: z.object({}),
        run: async (_args, call) => `${(await call.confirm('Go ahead?')).confirmed} ${identityOf(call)}`,
      }),
    ],
    resources: [defineResource({ uri: 'memo://caller', name: 'caller', read: (context) => identityOf(context) })],
    prompts: [
      definePrompt({ name: 'caller', description: 'Names the caller.', get: (_args, context) => identityOf(context) }),
    ],
  });
}

type Response = { id: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A hand-driven client on one end of a pair, sending each request with the identity given. */
async function connectPeer(server: McpServer) {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const waiting = new Map<number, (response: Response) => void>();
  clientSide.onmessage = (message) => {
    const response = message as Response;
    if (!('method' in response)) waiting.get(response.id)?.(response);
  };
  await clientSide.start();
  let nextId = 1;
  return {
    request(method: string, params: Record<string, unknown>, authInfo?: AuthInfo): Promise<Response> {
      const id = nextId++;
      const answered = new Promise<Response>((resolve) => waiting.set(id, resolve));
      const message = { jsonrpc: '2.0', id, method, params } as JsonRpcPayload;
      void clientSide.send(message, authInfo === undefined ? {} : { authInfo });
      return answered;
    },
    notify: (method: string) => clientSide.send({ jsonrpc: '2.0', method }),
  };
}

type Peer = Awaited<ReturnType<typeof connectPeer>>;

const modernMeta = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientInfo]: { name: 't', version: '1' },
  [MetaKey.clientCapabilities]: { elicitation: { form: {} } },
};

/** A peer in one era, and how a request's params look in it. */
const eras: {
  era: string;
  open(server: McpServer): Promise<{ peer: Peer; params(own: Record<string, unknown>): Record<string, unknown> }>;
}[] = [
  {
    era: 'legacy',
    async open(server) {
      const peer = await connectPeer(server);
      await peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 't', version: '1' },
      });
      await peer.notify('notifications/initialized');
      return { peer, params: (own) => own };
    },
  },
  {
    era: 'modern',
    async open(server) {
      return { peer: await connectPeer(server), params: (own) => ({ ...own, _meta: modernMeta }) };
    },
  },
];

describe.each(eras)('the identity a request is sent for, in the $era era', ({ open }) => {
  const textOf = (response: Response): unknown => {
    const result = response.result as {
      content?: { text: string }[];
      contents?: { text: string }[];
      messages?: { content: { text: string } }[];
    };
    const text = result.content?.[0]?.text ?? result.contents?.[0]?.text ?? result.messages?.[0]?.content.text;
    return JSON.parse(text ?? 'undefined');
  };

  it("reaches a tool's call.auth, a resource's and a prompt's context, and only the request it came with", async () => {
    const server = identityServer();
    const { peer, params } = await open(server);
    const seen = { ...customer, scopes: [...customer.scopes], claims: { ...customer.claims } };
    expect(textOf(await peer.request('tools/call', params({ name: 'whoami', arguments: {} }), customer))).toEqual(seen);
    expect(textOf(await peer.request('resources/read', params({ uri: 'memo://caller' }), customer))).toEqual(seen);
    expect(textOf(await peer.request('prompts/get', params({ name: 'caller' }), customer))).toEqual(seen);
    // The identity belongs to one request; the next, sent for nobody, has none.
    expect(textOf(await peer.request('tools/call', params({ name: 'whoami', arguments: {} })))).toBeNull();
    await server.close();
  });
});

describe('the identity of a 2026-era request that asks a question', () => {
  it('answers a retry sent for the same caller, and refuses the state to another one', async () => {
    const server = identityServer();
    const peer = await connectPeer(server);
    const call = { name: 'confirm_then_whoami', arguments: {}, _meta: modernMeta };
    const first = await peer.request('tools/call', call, customer);
    const { inputRequests, requestState } = first.result as {
      inputRequests: Record<string, unknown>;
      requestState: string;
    };
    const [key] = Object.keys(inputRequests);
    const retry = {
      ...call,
      requestState,
      inputResponses: { [String(key)]: { action: 'accept', content: { confirmed: true } } },
    };
    const answered = await peer.request('tools/call', retry, customer);
    expect((answered.result as { content: { text: string }[] }).content[0]?.text).toBe(
      `true ${JSON.stringify(customer)}`,
    );
    const intruder = { ...customer, subject: 'user-4', claims: { sub: 'user-4', customer_id: 4 } };
    expect((await peer.request('tools/call', retry, intruder)).error?.message).toMatch(/another caller/);
    expect((await peer.request('tools/call', retry)).error?.message).toMatch(/another caller/);
    await server.close();
  });
});
