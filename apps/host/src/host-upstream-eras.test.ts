import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connectInMemory, connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, type HostHarness, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { startSdkHttpServer } from './__fixtures__/sdk-http-server.ts';
import { type SdkModernHttpServer, startSdkModernHttpServer } from './__fixtures__/sdk-modern-http-server.ts';
import { startedChildGroups } from './upstream/child-process-transport.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url).pathname;

/** The SDK v2 fixture server as a child: dual-era, or refusing the legacy handshake. */
function modernChild(...flags: string[]) {
  return { command: process.execPath, args: [fixture('sdk-modern-stdio-server.ts'), ...flags] };
}

function rawLegacyChild(onDiscover: '--silent' | '--exit') {
  return { command: process.execPath, args: [fixture('raw-legacy-stdio-server.ts'), onDiscover] };
}

function upstreamNamed(h: HostHarness, name: string) {
  const upstream = h.host.upstreams.find((candidate) => candidate.entry.name === name);
  if (upstream === undefined) throw new Error(`no upstream ${name}`);
  return upstream;
}

/** The questions an upstream asks, relayed to the calling client and answered there. */
async function expectRelayedQuestions(h: HostHarness, prefix: string) {
  h.asked.length = 0;
  const greeted = await h.call(`${prefix}_greet`, {});
  expect(textOf(greeted)).toBe('Hello, Ada Lovelace!');
  expect(h.asked).toEqual(['What is your name?']);

  h.asked.length = 0;
  h.forms = { 'Which size?': { size: 'large' }, 'Which topping?': { topping: 'basil' } };
  const ordered = await h.call(`${prefix}_order_pizza`, {});
  expect(textOf(ordered)).toBe('Ordered a large pizza with basil.');
  expect(h.asked).toEqual(['Which size?', 'Which topping?']);

  h.asked.length = 0;
  const endless = await h.call(`${prefix}_endless_questions`, {});
  expect(endless.isError).toBe(true);
  expect(textOf(endless)).toMatch(
    new RegExp(`^${prefix} could not finish endless_questions: it still wanted more input after 10 rounds`),
  );
  expect(h.asked).toHaveLength(10);
}

describe('an upstream that speaks the modern era, over stdio', () => {
  let h: HostHarness;
  let groupsBefore: number;

  beforeAll(async () => {
    groupsBefore = startedChildGroups().length;
    h = await startHostHarness(() => ({
      mcpServers: { modern: modernChild(), strict: modernChild('--modern-only') },
    }));
  });

  afterAll(async () => {
    expect(h.specViolations()).toEqual([]);
    await h.close();
  });

  it('is found modern by server/discover, in the one child process that serves it', async () => {
    expect(startedChildGroups().length - groupsBefore).toBe(2);
    for (const name of ['modern', 'strict']) {
      const upstream = upstreamNamed(h, name);
      expect(upstream.state).toBe('up');
      expect(upstream.identity).toMatchObject({
        era: 'modern',
        protocolVersion: '2026-07-28',
        serverInfo: { name: 'sdk-modern-fixture' },
      });
      // The probe, the tool list and the call all went to the process the host started, and only to it.
      expect(textOf(await h.call(`${name}_whoami`, {}))).toBe(String(upstream.pid));
    }
    expect(h.log).toContain('[modern] modern era, protocol 2026-07-28 (sdk-modern-fixture 2.4.0)');
    expect((await h.call('strict_add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
  });

  it('passes progress and cancellation through', async () => {
    const progress: number[] = [];
    await h.call(
      'strict_slow_count',
      { to: 3, stepMs: 10 },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const pending = h.call('strict_slow_count', { to: 100, stepMs: 20 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/abort/i);
    await expect.poll(() => h.log, { timeout: 3000 }).toContain('[strict] slow_count saw its cancellation');
  });

  it('puts the questions of input_required results to the calling client, round after round', async () => {
    await expectRelayedQuestions(h, 'strict');
    // The upstream got the answer: it says so on its stderr, which the host logs.
    expect(h.log).toContain('[strict] greet was answered: Ada Lovelace');
  });

  it('relays the questions to a caller that speaks the modern era too, round after round', async () => {
    const asked: string[] = [];
    const answers: Record<string, Record<string, unknown>> = {
      'What is your name?': { name: 'Grace Hopper' },
      'Which size?': { size: 'small' },
      'Which topping?': { topping: 'olives' },
    };
    const client = await connectTestClient(
      { server: h.host.server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: answers[String(params.message)] ?? {} };
        },
      },
    );
    try {
      expect(client.protocolVersion).toBe('2026-07-28');
      expect((await client.callTool('strict_greet')).content[0]?.text).toBe('Hello, Grace Hopper!');
      expect((await client.callTool('strict_order_pizza')).content[0]?.text).toBe('Ordered a small pizza with olives.');
      expect(asked).toEqual(['What is your name?', 'Which size?', 'Which topping?']);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("asks the calling client's model and roots when the upstream needs them", async () => {
    const client = new Client(
      { name: 'sampling-and-roots', version: '1' },
      { capabilities: { sampling: {}, roots: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: {
        type: 'text',
        text: `You asked: ${(request.params.messages[0]?.content as { text?: string } | undefined)?.text}`,
      },
    }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    await connectInMemory(h.host.server, client);
    const result = (await client.callTool({ name: 'strict_ask_model', arguments: { question: 'why?' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.content[0]?.text).toBe('The model said "You asked: why?"; the roots are file:///work.');
    await client.close();
  });

  it('tells the upstream what the calling client cannot answer, and refuses the call', async () => {
    const client = new Client({ name: 'no-elicitation', version: '1' });
    await connectInMemory(h.host.server, client);
    const result = (await client.callTool({ name: 'strict_greet', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^strict refused the call: .*elicitation/i);
    await client.close();
  });

  it('hears tool-list changes on a subscriptions/listen stream and tells its own clients', async () => {
    let changed = 0;
    h.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    expect(textOf(await h.call('strict_add_tool', { name: 'fresh' }))).toBe('added fresh');
    await expect
      .poll(async () => (await h.client.listTools()).tools.map((tool) => tool.name), { timeout: 5000 })
      .toContain('strict_fresh');
    expect(changed).toBeGreaterThan(0);
    expect(textOf(await h.call('strict_fresh', {}))).toBe('fresh');
  });
});

describe('an upstream that speaks the modern era, over Streamable HTTP', () => {
  let h: HostHarness;
  let remote: SdkModernHttpServer;

  beforeAll(async () => {
    remote = await startSdkModernHttpServer({ modernOnly: true });
    h = await startHostHarness(() => ({ mcpServers: { remote: { url: remote.url } } }));
  });

  afterAll(async () => {
    expect(h.specViolations()).toEqual([]);
    await h.close();
    await remote.close();
  });

  it('is found modern, and every request carries the modern headers and no session', async () => {
    expect(upstreamNamed(h, 'remote').identity).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect((await h.call('remote_add', { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    expect(remote.seen.length).toBeGreaterThan(2);
    expect(remote.seen.every((request) => request.httpMethod === 'POST')).toBe(true);
    for (const request of remote.seen) {
      expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(request.headers['mcp-session-id']).toBeUndefined();
    }
    expect(remote.seen.map((request) => request.headers['mcp-method'])).toEqual(
      expect.arrayContaining(['server/discover', 'tools/list', 'subscriptions/listen', 'tools/call']),
    );
    expect(remote.seen.map((request) => request.headers['mcp-method'])).not.toContain('initialize');
    const call = remote.seen.find((request) => request.headers['mcp-method'] === 'tools/call');
    expect(call?.headers['mcp-name']).toBe('add');
  });

  it('passes progress through, and cancels by closing the response stream', async () => {
    const progress: number[] = [];
    await h.call(
      'remote_slow_count',
      { to: 3, stepMs: 10 },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const pending = h.call('remote_slow_count', { to: 100, stepMs: 20 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/abort/i);
    await expect.poll(() => remote.state.cancelled, { timeout: 3000 }).toBe(1);
  });

  it('puts the questions of input_required results to the calling client, round after round', async () => {
    await expectRelayedQuestions(h, 'remote');
    expect(remote.state.answers).toEqual([{ name: 'Ada Lovelace' }, { size: 'large', topping: 'basil' }]);
  });

  it('hears tool-list changes on a subscriptions/listen stream', async () => {
    expect(textOf(await h.call('remote_add_tool', { name: 'fresh' }))).toBe('added fresh');
    await expect
      .poll(async () => (await h.client.listTools()).tools.map((tool) => tool.name), { timeout: 5000 })
      .toContain('remote_fresh');
  });
});

describe('an upstream that speaks only the legacy era', () => {
  it('falls back to initialize on the same child when server/discover is refused', async () => {
    const groupsBefore = startedChildGroups().length;
    const h = await startHostHarness(() => ({
      mcpServers: { everything: { ...everythingServer(), tools: { allow: ['echo'] } } },
    }));
    try {
      expect(startedChildGroups().length - groupsBefore).toBe(1);
      const upstream = upstreamNamed(h, 'everything');
      expect(upstream.identity?.era).toBe('legacy');
      expect(upstream.identity?.legacyBecause).toMatch(/answered server\/discover with error -32\d+/);
      expect(h.log.join('\n')).toMatch(/\[everything\] legacy era, protocol 2025-11-25 .*server\/discover/);
      expect(textOf(await h.call('everything_echo', { message: 'old' }))).toBe('Echo: old');
    } finally {
      await h.close();
    }
  });

  it('falls back when server/discover goes unanswered past the probe time limit', async () => {
    const groupsBefore = startedChildGroups().length;
    const h = await startHostHarness(() => ({ mcpServers: { quiet: rawLegacyChild('--silent') } }), {
      probeTimeLimitMs: 300,
    });
    try {
      expect(startedChildGroups().length - groupsBefore).toBe(1);
      const upstream = upstreamNamed(h, 'quiet');
      expect(upstream.identity).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
      expect(upstream.identity?.legacyBecause).toBe('it did not answer server/discover within 300 ms');
      expect(textOf(await h.call('quiet_echo', { text: 'hi' }))).toBe(`${upstream.pid}: hi`);
    } finally {
      await h.close();
    }
  });

  it('speaks legacy to a child that exits on server/discover from its next start on', async () => {
    const groupsBefore = startedChildGroups().length;
    const h = await startHostHarness(() => ({ mcpServers: { brittle: rawLegacyChild('--exit') } }), {
      restartDelayMs: 50,
    });
    try {
      await expect.poll(() => upstreamNamed(h, 'brittle').state, { timeout: 5000 }).toBe('up');
      expect(startedChildGroups().length - groupsBefore).toBe(2);
      expect(h.log.join('\n')).toMatch(
        /\[brittle\] could not start: it closed the connection when asked server\/discover/,
      );
      expect(upstreamNamed(h, 'brittle').identity?.era).toBe('legacy');
      expect(textOf(await h.call('brittle_echo', { text: 'again' }))).toMatch(/: again$/);
    } finally {
      await h.close();
    }
  });

  it('falls back to initialize over HTTP when the answer is a 4xx without a modern error', async () => {
    const remote = await startSdkHttpServer();
    const h = await startHostHarness(() => ({ mcpServers: { old: { url: remote.url } } }));
    try {
      const upstream = upstreamNamed(h, 'old');
      expect(upstream.identity?.era).toBe('legacy');
      expect(upstream.identity?.legacyBecause).toMatch(/server\/discover/);
      expect((await h.call('old_add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    } finally {
      await h.close();
      await remote.close();
    }
  });

  it('never sends a call twice when a modern caller answers a legacy upstream by retrying', async () => {
    const remote = await startSdkHttpServer();
    const h = await startHostHarness(() => ({ mcpServers: { old: { url: remote.url } } }));
    const asked: string[] = [];
    const client = await connectTestClient(
      { server: h.host.server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: { keep: true } };
        },
      },
    );
    try {
      expect(upstreamNamed(h, 'old').identity?.era).toBe('legacy');
      const result = await client.callTool('old_note_then_ask', { note: 'milk' });
      expect(result.content[0]?.text).toBe('kept milk');
      expect(asked).toEqual(['Keep the note "milk"?']);
      // The upstream's call ran once: the retry resumed it instead of sending it again.
      expect(remote.noted).toBe(1);
      const calls = client.recording.messages.filter(
        (entry) => entry.direction === 'to-server' && (entry.message as { method?: string }).method === 'tools/call',
      );
      expect(calls).toHaveLength(2);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
      await h.close();
      await remote.close();
    }
  });
});
