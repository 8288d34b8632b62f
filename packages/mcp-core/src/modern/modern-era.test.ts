import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { ToolError } from '../errors/tool-error.ts';
import { definePrompt } from '../prompts/define-prompt.ts';
import { defineResource } from '../resources/define-resource.ts';
import { connectTestClient, type TestClientKind, type TestTransportKind } from '../testing/connect-test-client.ts';
import { defineTool } from '../tools/define-tool.ts';

const stdioBin = [new URL('../__fixtures__/stdio-fixture-server.ts', import.meta.url).pathname];

const meta = (capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  ...extra,
});

const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text ?? '';

describe('every official client, every transport, both eras', () => {
  const combinations: [TestClientKind, TestTransportKind, string][] = [];
  for (const client of ['v1', 'v2-legacy', 'v2-modern'] as const) {
    for (const transport of ['memory', 'stdio', 'http'] as const) {
      combinations.push([client, transport, client === 'v2-modern' ? '2026-07-28' : '2025-11-25']);
    }
  }

  it.each(combinations)(
    '%s over %s speaks %s, calls tools, asks the user, and emits only valid messages',
    async (kind, transport, version) => {
      const server = createFixtureServer();
      const client = await connectTestClient(transport === 'stdio' ? { bin: stdioBin } : { server }, {
        client: kind,
        transport,
        onElicit: (params) => ({
          action: 'accept',
          content: String(params.message).startsWith('Delete') ? { confirmed: true } : { name: 'Ada' },
        }),
      });
      try {
        expect(client.protocolVersion).toBe(version);
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['echo', 'confirm_delete', 'ask_name']));
        expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
        expect((await client.callTool('confirm_delete', { target: 'a.txt' })).structuredContent).toEqual({
          confirmed: true,
          action: 'accept',
        });
        expect(textOf(await client.callTool('ask_name'))).toBe('Hello Ada');
        expect(client.recording.specViolations()).toEqual([]);
      } finally {
        await client.close();
        await server.close();
      }
    },
  );
});

describe('user input over multi round-trip requests', () => {
  const sideEffects: string[] = [];
  const server = createFixtureServer({
    tools: [
      defineTool({
        name: 'delete_file',
        description: 'Deletes after the user confirms',
        input: z.object({ path: z.string() }),
        async run({ path }, context) {
          const { confirmed } = await context.confirm(`Delete ${path}?`);
          if (!confirmed) throw new ToolError('Not deleted: the user said no');
          sideEffects.push(path);
          return `deleted ${path}`;
        },
      }),
      defineTool({
        name: 'plan_trip',
        description: 'Asks three things at once, then one more',
        input: z.object({}),
        async run(_args, context) {
          const [who, model, roots] = await Promise.all([
            context.elicit({ message: 'Who?', schema: z.object({ name: z.string() }) }),
            context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Where?' } }], maxTokens: 10 }),
            context.roots(),
          ]);
          const when = await context.elicit({ message: 'When?', schema: z.object({ day: z.string() }) });
          const name = who.action === 'accept' ? who.content.name : '?';
          const day = when.action === 'accept' ? when.content.day : '?';
          return `${name} to ${(model.content as { text: string }).text} on ${day} from ${roots?.[0]?.uri}`;
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: 'briefing',
        description: 'Asks for a topic first',
        get: async (_args, context) => {
          const topic = await context.elicit({ message: 'Topic?', schema: z.object({ topic: z.string() }) });
          return `Brief me on ${topic.action === 'accept' ? topic.content.topic : 'anything'}`;
        },
      }),
    ],
    resources: [defineResource({ uri: 'memo://a', name: 'a', read: () => 'memo' })],
  });

  afterAll(() => server.close());

  it('runs the side effect once, after the answer, though the handler ran twice', async () => {
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: () => ({ action: 'accept', content: { confirmed: true } }),
      },
    );
    expect(textOf(await client.callTool('delete_file', { path: 'notes.txt' }))).toBe('deleted notes.txt');
    expect(sideEffects).toEqual(['notes.txt']);
    const sent = client.recording.messages.filter(
      (entry) => entry.direction === 'to-server' && (entry.message as { method?: string }).method === 'tools/call',
    );
    expect(sent).toHaveLength(2);
    expect(client.recording.specViolations()).toEqual([]);
    await client.close();
  });

  it('a declined question runs no side effect', async () => {
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: () => ({ action: 'decline' }),
      },
    );
    const result = await client.callTool('delete_file', { path: 'keep.txt' });
    expect(result.isError).toBe(true);
    expect(sideEffects).not.toContain('keep.txt');
    await client.close();
  });

  it('asks questions made together in one round, then the next, across sampling, roots and forms', async () => {
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: (params) => ({
          action: 'accept',
          content: params.message === 'Who?' ? { name: 'Ada' } : { day: 'Monday' },
        }),
        onSample: () => ({ role: 'assistant', content: { type: 'text', text: 'Lisbon' }, model: 'm' }),
        roots: [{ uri: 'file:///home/ada' }],
      },
    );
    expect(textOf(await client.callTool('plan_trip'))).toBe('Ada to Lisbon on Monday from file:///home/ada');
    const calls = client.recording.messages.filter(
      (entry) => entry.direction === 'to-server' && (entry.message as { method?: string }).method === 'tools/call',
    );
    expect(calls).toHaveLength(3);
    expect(client.recording.specViolations()).toEqual([]);
    await client.close();
  });

  it('asks from prompts/get as well', async () => {
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: () => ({ action: 'accept', content: { topic: 'tides' } }),
      },
    );
    const sdk = client.sdk as { getPrompt(params: unknown): Promise<{ messages: { content: { text: string } }[] }> };
    const prompt = await sdk.getPrompt({ name: 'briefing' });
    expect(prompt.messages[0]?.content.text).toBe('Brief me on tides');
    await client.close();
  });

  it('refuses tampered, misplaced and malformed state with -32602, and ignores answers to questions not asked', async () => {
    const peer = await connectRawPeer(server);
    const capabilities = { elicitation: { form: {} } };
    const first = await peer.request('tools/call', {
      name: 'delete_file',
      arguments: { path: 'x' },
      _meta: meta(capabilities),
    });
    const result = first.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(result.resultType).toBe('input_required');
    const [key] = Object.keys(result.inputRequests);
    const yes = { [key as string]: { action: 'accept', content: { confirmed: true } } };
    const tampered = `${result.requestState.slice(0, -3)}AAA`;
    for (const [requestState, args] of [
      [tampered, { path: 'x' }],
      [result.requestState, { path: 'y' }],
      ['not a state', { path: 'x' }],
    ] as const) {
      const retry = await peer.request('tools/call', {
        name: 'delete_file',
        arguments: args,
        inputResponses: yes,
        requestState,
        _meta: meta(capabilities),
      });
      expect((retry.error as { code: number }).code).toBe(-32602);
    }
    const unasked = await peer.request('tools/call', {
      name: 'delete_file',
      arguments: { path: 'z' },
      inputResponses: { other: { action: 'accept', content: { confirmed: true } } },
      _meta: meta(capabilities),
    });
    expect((unasked.result as { resultType: string }).resultType).toBe('input_required');
    expect(sideEffects).not.toContain('y');
    expect(sideEffects).not.toContain('z');
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it('accepts a requestState once: a replay of an approving retry is refused, on this server and on a replica sharing the ledger', async () => {
    const spent = new Set<string>();
    const ledger = {
      async spend(nonce: string) {
        if (spent.has(nonce)) return false;
        spent.add(nonce);
        return true;
      },
    };
    const replicaEffects: string[] = [];
    const replica = () =>
      createFixtureServer({
        requestStateKey: 'shared-replica-key',
        requestStateLedger: ledger,
        tools: [
          defineTool({
            name: 'delete_file',
            description: 'Deletes after the user confirms',
            input: z.object({ path: z.string() }),
            async run({ path }, context) {
              if (!(await context.confirm(`Delete ${path}?`)).confirmed) throw new ToolError('Not deleted');
              replicaEffects.push(path);
              return `deleted ${path}`;
            },
          }),
        ],
      });
    const [one, two] = [replica(), replica()];
    const [first, second] = [await connectRawPeer(one), await connectRawPeer(two)];
    const capabilities = { elicitation: { form: {} } };
    const asked = await first.request('tools/call', {
      name: 'delete_file',
      arguments: { path: 'once.txt' },
      _meta: meta(capabilities),
    });
    const { inputRequests, requestState } = asked.result as { inputRequests: object; requestState: string };
    const retry = {
      name: 'delete_file',
      arguments: { path: 'once.txt' },
      inputResponses: { [Object.keys(inputRequests)[0] as string]: { action: 'accept', content: { confirmed: true } } },
      requestState,
      _meta: meta(capabilities),
    };
    expect(textOf((await first.request('tools/call', retry)).result as never)).toBe('deleted once.txt');
    for (const peer of [first, second]) {
      const replay = await peer.request('tools/call', retry);
      expect(replay.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    }
    expect(replicaEffects).toEqual(['once.txt']);
    await one.close();
    await two.close();
  });

  it('answers -32021 when a request needs a capability the client did not declare', async () => {
    const peer = await connectRawPeer(server);
    const response = await peer.request('tools/call', { name: 'delete_file', arguments: { path: 'x' }, _meta: meta() });
    expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(peer.recording.specViolations()).toEqual([]);
  });
});

describe('the 2026 rules on a message stream', () => {
  it('checks _meta, versions and removed methods, and decorates every result', async () => {
    const server = createFixtureServer();
    const peer = await connectRawPeer(server);
    const discover = await peer.request('server/discover', { _meta: meta() });
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: true } },
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fixture', version: '1.2.3' } },
    });
    // The first request with modern _meta settles the stream's era; from then on _meta is required.
    expect((await peer.request('tools/list', { _meta: meta() })).result).toMatchObject({ resultType: 'complete' });
    expect((await peer.request('tools/list', {})).error).toMatchObject({ code: -32602 });
    const old = await peer.request('tools/list', {
      _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    });
    expect(old.error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe']) {
      expect((await peer.request(method, { _meta: meta() })).error).toMatchObject({ code: -32601 });
    }
    const list = await peer.request('tools/list', { _meta: meta() });
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(peer.recording.specViolations()).toEqual([]);
    await server.close();
  });

  it('logs only at the level a request names, and cancels on notifications/cancelled', async () => {
    const server = createFixtureServer();
    const peer = await connectRawPeer(server);
    await peer.request('tools/call', { name: 'log', arguments: {}, _meta: meta() });
    expect(
      peer.received.filter((message) => (message as { method?: string }).method === 'notifications/message'),
    ).toEqual([]);
    await peer.request('tools/call', {
      name: 'log',
      arguments: {},
      _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'debug' }),
    });
    expect(peer.received.some((message) => (message as { method?: string }).method === 'notifications/message')).toBe(
      true,
    );
    const before = peer.received.length;
    void peer.request('tools/call', { name: 'wait', arguments: { steps: 10_000 }, _meta: meta() });
    await peer.settle();
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1002 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(peer.received.slice(before)).toEqual([]);
    expect(peer.recording.specViolations()).toEqual([]);
    await server.close();
  });

  it('streams subscribed list changes, tagged, and ends subscriptions gracefully when the server closes', async () => {
    const server = createFixtureServer();
    const peer = await connectRawPeer(server);
    const ended = peer.request('subscriptions/listen', { notifications: { toolsListChanged: true }, _meta: meta() });
    await peer.settle();
    server.removeTool('echo');
    server.removeTool('add');
    await peer.settle();
    const changes = peer.received.filter((message) => (message as { method: string }).method !== undefined);
    expect(changes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          _meta: { 'io.modelcontextprotocol/subscriptionId': 1000 },
          notifications: { toolsListChanged: true },
        },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 1000 } },
      },
    ]);
    await server.close();
    expect(await ended).toEqual({
      jsonrpc: '2.0',
      id: 1000,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 1000 } },
    });
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it('lets a client probe with server/discover and then begin a 2025 session on the same stream', async () => {
    const server = createFixtureServer();
    const peer = await connectRawPeer(server);
    expect((await peer.request('server/discover', { _meta: meta() })).result).toMatchObject({ resultType: 'complete' });
    const initialized = await peer.initialize('2025-06-18');
    expect(initialized.result).toMatchObject({ protocolVersion: '2025-06-18' });
    expect((await peer.request('ping')).result).toEqual({});
    await server.close();
  });
});
