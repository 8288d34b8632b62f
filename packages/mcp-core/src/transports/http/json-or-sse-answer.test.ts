import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../../__fixtures__/fixture-tools.ts';
import { openSession, parseSse, send } from '../../__fixtures__/http-peer.ts';
import { connectTestClient, type TestClientKind } from '../../testing/connect-test-client.ts';
import { defineTool } from '../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

/** Five million characters: over the 1 MiB a Python SDK client takes in one SSE event, several times over. */
const bigText = 'x'.repeat(5_000_000);

/** A call that cannot finish until the test lets it, so nothing depends on how fast the machine is. */
function createGate(): { wait: Promise<string>; open(text: string): void } {
  let open: (text: string) => void = () => {};
  const wait = new Promise<string>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
let gate = createGate();

const server = createFixtureServer();
server.addTool(
  defineTool({
    name: 'big',
    description: 'Returns five million characters.',
    input: z.object({}),
    run: () => bigText,
  }),
);
server.addTool(
  defineTool({
    name: 'gated',
    description: 'Answers when the test opens the gate.',
    input: z.object({}),
    run: () => gate.wait,
  }),
);

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-http', version: '1.0.0' },
};

function modernCall(url: string, id: number, name: string, args: Record<string, unknown>, meta = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...modernMeta, ...meta } },
    }),
  });
}

const legacyCall = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta },
});

/** What each POST of a JSON-RPC request was answered with, by method, as the client's fetch saw it. */
function watchAnswers(): { seen: { method: string; contentType: string | null }[]; stop(): void } {
  const original = globalThis.fetch;
  const seen: { method: string; contentType: string | null }[] = [];
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const message = JSON.parse(init.body) as { method?: string; id?: unknown };
      if (message.method !== undefined && message.id !== undefined) {
        seen.push({ method: message.method, contentType: response.headers.get('content-type') });
      }
    }
    return response;
  };
  return { seen, stop: () => (globalThis.fetch = original) };
}

describe('answers as JSON when nothing streams before them', () => {
  let http: HttpServerHandle;

  beforeAll(async () => {
    // No keep-alive tick can turn a held answer into a stream here, however slow the machine.
    http = await serveHttp(server, { host: '127.0.0.1', port: 0, keepAliveMs: 3_600_000 });
  });
  afterAll(async () => {
    await http.close();
  });

  it.each<TestClientKind>(['v1', 'v2-legacy', 'v2-modern'])(
    'the %s client gets quiet calls and a 5 MB result as JSON, and streams only what must stream',
    async (kind) => {
      const watch = watchAnswers();
      try {
        const client = await connectTestClient(
          { server },
          { client: kind, transport: 'http', onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }) },
        );
        expect((await client.callTool('echo', { text: 'hi' })).content[0]?.text).toBe('hi');
        const big = await client.callTool('big', {});
        expect(big.content[0]?.text).toHaveLength(bigText.length);
        expect((await client.callTool('ask_name', {})).content[0]?.text).toBe('Hello Ada');
        expect(client.recording.specViolations()).toEqual([]);
        await client.close();
        const calls = watch.seen.filter((answer) => answer.method === 'tools/call');
        // A 2025-era question to the client travels on the call's own response, which becomes a stream;
        // a 2026-era question is an answer (input_required), and the retry that carries the reply is another.
        const asking = kind === 'v2-modern' ? ['application/json', 'application/json'] : ['text/event-stream'];
        expect(calls.map((answer) => answer.contentType)).toEqual(['application/json', 'application/json', ...asking]);
      } finally {
        watch.stop();
      }
    },
  );

  it('2025 era: a quiet call is one JSON body with its length', async () => {
    const session = await openSession(http.url);
    const response = await send(http.url, { headers: session, body: legacyCall(1, 'echo', { text: 'plain' }) });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(response.text)));
    expect(response.json()).toMatchObject({ id: 1, result: { content: [{ text: 'plain' }] } });
  });

  it('2025 era: a 5 MB result with nothing before it is JSON, not one oversized event', async () => {
    const session = await openSession(http.url);
    const response = await send(http.url, { headers: session, body: legacyCall(2, 'big') });
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = response.json() as { result: { content: { text: string }[] } };
    expect(body.result.content[0]?.text).toHaveLength(bigText.length);
  });

  it('2025 era: a batch whose second call streams becomes SSE and still carries the first answer', async () => {
    const session = await openSession(http.url, '2025-03-26');
    const response = await send(http.url, {
      headers: session,
      body: [
        legacyCall(3, 'echo', { text: 'first' }),
        legacyCall(4, 'wait', { steps: 2, stepMs: 1 }, { progressToken: 't' }),
      ],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const messages = parseSse(response.text).map((event) => JSON.parse(event.data) as { id?: number; method?: string });
    expect(messages.filter((message) => message.id !== undefined).map((message) => message.id)).toEqual(
      expect.arrayContaining([3, 4]),
    );
    expect(messages.filter((message) => message.method === 'notifications/progress')).toHaveLength(2);
  });

  it('2025 era: a batch in a version without batches is refused at once, not left waiting', async () => {
    const session = await openSession(http.url);
    const response = await send(http.url, { headers: session, body: [legacyCall(5, 'echo', { text: 'no' })] });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ id: null, error: { code: -32600, message: /2025-03-26/ } });
  });

  it('2026 era: a quiet call and a 5 MB result are JSON; a call with progress streams', async () => {
    const quiet = await modernCall(http.url, 10, 'echo', { text: 'modern' });
    expect(quiet.headers.get('content-type')).toBe('application/json');
    expect(await quiet.json()).toMatchObject({ id: 10, result: { content: [{ text: 'modern' }] } });
    const big = await modernCall(http.url, 11, 'big', {});
    expect(big.headers.get('content-type')).toBe('application/json');
    const bigBody = (await big.json()) as { result: { content: { text: string }[] } };
    expect(bigBody.result.content[0]?.text).toHaveLength(bigText.length);
    const streamed = await modernCall(http.url, 12, 'wait', { steps: 2, stepMs: 1 }, { progressToken: 'm' });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const messages = parseSse(await streamed.text()).map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(messages.map((message) => message.method ?? message.id)).toEqual([
      'notifications/progress',
      'notifications/progress',
      12,
    ]);
  });
});

describe('a call quiet for a whole keep-alive interval becomes a stream, so proxies see it alive', () => {
  let http: HttpServerHandle;

  beforeAll(async () => {
    http = await serveHttp(server, { host: '127.0.0.1', port: 0, keepAliveMs: 20 });
  });
  afterAll(async () => {
    gate.open('closing');
    await http.close();
  });

  it('2025 era', async () => {
    gate = createGate();
    const session = await openSession(http.url);
    // fetch settles on the headers, which a held answer does not send until the interval has passed.
    const response = await fetch(http.url, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify(legacyCall(20, 'gated')),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    gate.open('let through');
    const text = await response.text();
    expect(text).toContain(': keep-alive');
    expect(JSON.parse(parseSse(text).at(-1)?.data ?? '')).toMatchObject({
      id: 20,
      result: { content: [{ text: 'let through' }] },
    });
  });

  it('2026 era', async () => {
    gate = createGate();
    const response = await modernCall(http.url, 21, 'gated', {});
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    gate.open('let through');
    const text = await response.text();
    expect(text).toContain(': keep-alive');
    expect(JSON.parse(parseSse(text).at(-1)?.data ?? '')).toMatchObject({
      id: 21,
      result: { content: [{ text: 'let through' }] },
    });
  });
});
