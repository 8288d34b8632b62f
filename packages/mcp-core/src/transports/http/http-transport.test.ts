import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../../__fixtures__/fixture-tools.ts';
import {
  initializeBody,
  jsonAndSse,
  openSession,
  parseSse,
  type RawResponse,
  send,
  sendWithHost,
} from '../../__fixtures__/http-peer.ts';
import { createSpecValidator } from '../../testing/spec-schema-validator.ts';
import { defineTool } from '../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

const validator = createSpecValidator('2025-11-25');
const pollingTool = defineTool({
  name: 'poll_me',
  description: 'Closes its stream, then answers after a pause.',
  input: z.object({}),
  run: async (_args, ctx) => {
    ctx.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'answered after the stream closed';
  },
});

let http: HttpServerHandle;
const server = createFixtureServer();
for (const tool of [pollingTool]) server.addTool(tool);

beforeAll(async () => {
  http = await serveHttp(server, { maxBodyBytes: 10_000, sseRetryMs: 750, headersTimeoutMs: 400 });
});
afterAll(async () => {
  await http.close();
});

function expectJsonRpcError(response: RawResponse, code: number, pattern: RegExp): void {
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = response.json() as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(pattern);
}

const call = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta },
});

describe('Streamable HTTP: status, headers and body of every rule', () => {
  it('binds 127.0.0.1 by default and serves /mcp', () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('initialize opens a session with a secure random id', async () => {
    const response = await send(http.url, { headers: { accept: jsonAndSse }, body: initializeBody() });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = response.json() as { result: { protocolVersion: string } };
    expect(body.result.protocolVersion).toBe('2025-11-25');
    expect(validator.validateServerMessage(body, 'initialize')).toEqual([]);
  });

  type Row = [
    name: string,
    request: (session: Record<string, string>) => Promise<RawResponse>,
    status: number,
    check: (r: RawResponse) => void,
  ];
  const rows: Row[] = [
    [
      'a notification gets 202 and no body',
      (s) => send(http.url, { headers: s, body: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' } }),
      202,
      (r) => expect(r.text).toBe(''),
    ],
    [
      'a response from the client gets 202 and no body',
      (s) => send(http.url, { headers: s, body: { jsonrpc: '2.0', id: 999, result: {} } }),
      202,
      (r) => expect(r.text).toBe(''),
    ],
    [
      'tools/list with both accepted is answered as JSON',
      (s) => send(http.url, { headers: s, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
      200,
      (r) => {
        expect(r.headers.get('content-type')).toBe('application/json');
        expect(validator.validateServerMessage(r.json(), 'tools/list')).toEqual([]);
      },
    ],
    [
      'a client that accepts only JSON gets JSON, even for tools/call',
      (s) => send(http.url, { headers: { ...s, accept: 'application/json' }, body: call(2, 'echo', { text: 'hi' }) }),
      200,
      (r) => expect((r.json() as { result: { content: { text: string }[] } }).result.content[0]?.text).toBe('hi'),
    ],
    [
      'a client with no Accept header gets JSON (lenient)',
      (s) => send(http.url, { headers: { ...s, accept: '' }, body: { jsonrpc: '2.0', id: 3, method: 'ping' } }),
      200,
      (r) => expect(r.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} }),
    ],
    [
      'a client that accepts only SSE gets SSE',
      (s) =>
        send(http.url, {
          headers: { ...s, accept: 'text/event-stream' },
          body: { jsonrpc: '2.0', id: 4, method: 'ping' },
        }),
      200,
      (r) => {
        expect(r.headers.get('content-type')).toBe('text/event-stream');
        expect(parseSse(r.text).at(-1)?.data).toBe('{"jsonrpc":"2.0","id":4,"result":{}}');
      },
    ],
    [
      'an Accept of neither is 406 with a JSON-RPC body',
      (s) =>
        send(http.url, { headers: { ...s, accept: 'text/html' }, body: { jsonrpc: '2.0', id: 5, method: 'ping' } }),
      406,
      (r) => expectJsonRpcError(r, -32000, /Not Acceptable/),
    ],
    [
      'a request without a session is 400',
      () => send(http.url, { headers: { accept: jsonAndSse }, body: { jsonrpc: '2.0', id: 6, method: 'ping' } }),
      400,
      (r) => expectJsonRpcError(r, -32000, /Mcp-Session-Id header is required/),
    ],
    [
      'an unknown session is 404',
      (s) =>
        send(http.url, {
          headers: { ...s, 'mcp-session-id': 'no-such-session' },
          body: { jsonrpc: '2.0', id: 7, method: 'ping' },
        }),
      404,
      (r) => expectJsonRpcError(r, -32001, /Session not found/),
    ],
    [
      'an unsupported MCP-Protocol-Version is 400 listing the supported ones',
      (s) =>
        send(http.url, {
          headers: { ...s, 'mcp-protocol-version': '1999-01-01' },
          body: { jsonrpc: '2.0', id: 8, method: 'ping' },
        }),
      400,
      (r) => expectJsonRpcError(r, -32022, /supported here: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05/),
    ],
    [
      'a missing MCP-Protocol-Version is taken as 2025-03-26 and served',
      (s) => {
        const { 'mcp-protocol-version': _dropped, ...rest } = s;
        return send(http.url, { headers: rest, body: { jsonrpc: '2.0', id: 9, method: 'ping' } });
      },
      200,
      (r) => expect(r.json()).toEqual({ jsonrpc: '2.0', id: 9, result: {} }),
    ],
    [
      'malformed JSON is 400 with -32700, as JSON',
      (s) => send(http.url, { headers: s, body: '{"jsonrpc": "2.0", "id": 1, "method": ' }),
      400,
      (r) => expectJsonRpcError(r, -32700, /Parse error/),
    ],
    [
      'a body that is JSON but not JSON-RPC is 400 with -32600',
      (s) => send(http.url, { headers: s, body: { hello: 'world' } }),
      400,
      (r) => expectJsonRpcError(r, -32600, /Invalid request/i),
    ],
    [
      'an oversized body is 413 with a JSON-RPC body',
      (s) => send(http.url, { headers: s, body: call(10, 'echo', { text: 'x'.repeat(20_000) }) }),
      413,
      (r) => expectJsonRpcError(r, -32000, /Payload too large: the limit is 10000 bytes/),
    ],
    [
      'a body that is not application/json is 415',
      (s) => send(http.url, { headers: { ...s, 'content-type': 'text/plain' }, body: '{}' }),
      415,
      (r) => expectJsonRpcError(r, -32000, /Content-Type: application\/json/),
    ],
    [
      'a foreign Host header is 403 (DNS rebinding)',
      (s) => sendWithHost(http.url, 'evil.example.com', s, { jsonrpc: '2.0', id: 11, method: 'ping' }),
      403,
      (r) => expectJsonRpcError(r, -32000, /Host header "evil.example.com" is not allowed/),
    ],
    [
      'a foreign Origin header is 403 (DNS rebinding)',
      (s) =>
        send(http.url, {
          headers: { ...s, origin: 'http://evil.example.com' },
          body: { jsonrpc: '2.0', id: 12, method: 'ping' },
        }),
      403,
      (r) => expectJsonRpcError(r, -32000, /Origin "http:\/\/evil.example.com" is not allowed/),
    ],
    [
      'a loopback Origin is served, with CORS headers',
      (s) =>
        send(http.url, {
          headers: { ...s, origin: 'http://localhost:5173' },
          body: { jsonrpc: '2.0', id: 13, method: 'ping' },
        }),
      200,
      (r) => {
        expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
        expect(r.headers.get('access-control-expose-headers')).toBe('mcp-session-id');
      },
    ],
    [
      'PUT is 405 with Allow',
      (s) => send(http.url, { method: 'PUT', headers: s, body: {} }),
      405,
      (r) => {
        expect(r.headers.get('allow')).toBe('GET, POST, DELETE');
        expectJsonRpcError(r, -32000, /Method not allowed/);
      },
    ],
    [
      'another path is 404 as JSON',
      (s) => send(http.url.replace('/mcp', '/admin'), { headers: s }),
      404,
      (r) => expectJsonRpcError(r, -32000, /the MCP endpoint is \/mcp/),
    ],
    [
      'a GET that does not accept SSE is 406',
      (s) => send(http.url, { headers: { ...s, accept: 'application/json' } }),
      406,
      (r) => expectJsonRpcError(r, -32000, /text\/event-stream/),
    ],
    [
      'a GET with an unknown Last-Event-ID is 400',
      (s) => send(http.url, { headers: { ...s, 'last-event-id': 'nope.3' } }),
      400,
      (r) => expectJsonRpcError(r, -32000, /Last-Event-ID names no stream/),
    ],
    [
      'initialize inside a batch is refused',
      (s) => send(http.url, { headers: s, body: [initializeBody(), { jsonrpc: '2.0', id: 14, method: 'ping' }] }),
      400,
      (r) => expectJsonRpcError(r, -32600, /initialize must be sent on its own/),
    ],
  ];

  it.each(rows)('%s', async (_name, request, status, check) => {
    const session = await openSession(http.url);
    const response = await request(session);
    expect(response.status, response.text).toBe(status);
    check(response);
  });

  it('tools/call streams SSE: priming event with id and retry, progress, the response, then the end', async () => {
    const session = await openSession(http.url);
    const response = await send(http.url, {
      headers: session,
      body: call(20, 'wait', { steps: 3, stepMs: 1 }, { progressToken: 'p' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(response.text);
    expect(events[0]).toMatchObject({ data: '', retry: 750 });
    expect(events[0]?.id).toMatch(/^[\w-]+\.0$/);
    const messages = events.slice(1).map((event) => JSON.parse(event.data) as { method?: string; id?: number });
    expect(messages.map((m) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    for (const [index, message] of messages.entries()) {
      expect(validator.validateServerMessage(message, index === 3 ? 'tools/call' : undefined)).toEqual([]);
    }
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('a 2025-03-26 session gets no priming event (older clients do not expect empty events)', async () => {
    const session = await openSession(http.url, '2025-03-26');
    const response = await send(http.url, {
      headers: session,
      body: call(21, 'wait', { steps: 1, stepMs: 1 }, { progressToken: 'p' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(response.text);
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0]?.data ?? '')).toMatchObject({ method: 'notifications/progress' });
    expect(JSON.parse(events[1]?.data ?? '')).toMatchObject({
      id: 21,
      result: { content: [{ text: 'waited 1 steps' }] },
    });
  });

  it('answers a 2025-03-26 batch with one JSON array', async () => {
    const session = await openSession(http.url, '2025-03-26');
    const response = await send(http.url, {
      headers: { ...session, accept: 'application/json' },
      body: [
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        call(22, 'echo', { text: 'in a batch' }),
      ],
    });
    expect(response.status).toBe(200);
    const answers = response.json() as { id: string | number }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual([22, 'a']);
  });

  it('a refused initialize leaves no session behind', async () => {
    const before = http.sessionCount;
    const refused = await send(http.url, {
      headers: { accept: 'application/json' },
      body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { capabilities: {} } },
    });
    expect(refused.status).toBe(200);
    expect((refused.json() as { error: { code: number } }).error.code).toBe(-32602);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(http.sessionCount).toBe(before);
  });

  it('DELETE ends the session; the next request on it is 404', async () => {
    const session = await openSession(http.url);
    const deleted = await send(http.url, { method: 'DELETE', headers: session });
    expect(deleted.status).toBe(200);
    const after = await send(http.url, { headers: session, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(after.status).toBe(404);
  });

  it("the GET stream carries list_changed, never another request's progress; a second GET is 409", async () => {
    const session = await openSession(http.url);
    const controller = new AbortController();
    const stream = await fetch(http.url, {
      headers: { ...session, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const second = await send(http.url, { headers: { ...session, accept: 'text/event-stream' } });
    expect(second.status).toBe(409);
    const reader = stream.body?.pipeThrough(new TextDecoderStream()).getReader();
    await send(http.url, { headers: session, body: call(30, 'wait', { steps: 2, stepMs: 1 }, { progressToken: 'q' }) });
    server.addTool(defineTool({ name: 'late', description: 'Added late.', input: z.object({}), run: () => 'late' }));
    let text = '';
    while (!text.includes('list_changed')) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += chunk.value;
    }
    server.removeTool('late');
    controller.abort();
    const messages = parseSse(text)
      .filter((event) => event.data !== '')
      .map((event) => JSON.parse(event.data) as { method: string });
    expect(messages.map((message) => message.method)).toEqual(['notifications/tools/list_changed']);
  });

  it('resumes a closed POST stream with Last-Event-ID: the response arrives on the GET', async () => {
    const session = await openSession(http.url);
    const first = await send(http.url, { headers: session, body: call(40, 'poll_me') });
    const events = parseSse(first.text);
    expect(events).toHaveLength(1); // Only the priming event: the tool closed the stream.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const resumed = await send(http.url, { headers: { ...session, 'last-event-id': events[0]?.id ?? '' } });
    expect(resumed.status).toBe(200);
    const replayed = parseSse(resumed.text).map((event) => JSON.parse(event.data) as { id: number; result: unknown });
    expect(replayed).toEqual([
      { jsonrpc: '2.0', id: 40, result: { content: [{ type: 'text', text: 'answered after the stream closed' }] } },
    ]);
  });

  it('times out a client that never finishes its headers (slow loris)', async () => {
    const { port } = new URL(http.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });
});

describe('Streamable HTTP: options and lifecycle', () => {
  it('refuses to serve a non-loopback address without auth unless told it is insecure', async () => {
    await expect(serveHttp(createFixtureServer(), { host: '0.0.0.0' })).rejects.toThrow(/without auth/);
  });

  it('stateless mode serves calls without initialize and has no GET or DELETE', async () => {
    const stateless = await serveHttp(createFixtureServer(), { sessions: 'stateless' });
    try {
      const headers = { accept: jsonAndSse, 'mcp-protocol-version': '2025-11-25' };
      const answer = await send(stateless.url, {
        headers: { ...headers, accept: 'application/json' },
        body: call(1, 'echo', { text: 'no session' }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      expect(answer.json()).toMatchObject({ id: 1, result: { content: [{ text: 'no session' }] } });
      expect((await send(stateless.url, { headers })).status).toBe(405);
      expect((await send(stateless.url, { method: 'DELETE', headers })).status).toBe(405);
      expect(stateless.sessionCount).toBe(0);
    } finally {
      await stateless.close();
    }
  });

  it('caps live sessions with 503 and Retry-After', async () => {
    // Sessions idle far longer than the test runs, so the cap is what answers, however slow the machine.
    const capped = await serveHttp(createFixtureServer(), { maxSessions: 2, sessionIdleMs: 600_000 });
    try {
      await openSession(capped.url);
      await openSession(capped.url);
      const third = await send(capped.url, { headers: { accept: jsonAndSse }, body: initializeBody() });
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('30');
      expectJsonRpcError(third, -32000, /maximum of 2 sessions/);
    } finally {
      await capped.close();
    }
  });

  it('expires idle sessions, which then answer 404', async () => {
    const expiring = await serveHttp(createFixtureServer(), { maxSessions: 2, sessionIdleMs: 200 });
    try {
      const first = await openSession(expiring.url);
      await expect.poll(() => expiring.sessionCount, { timeout: 30_000 }).toBe(0);
      const expired = await send(expiring.url, { headers: first, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
      expect(expired.status).toBe(404);
      // The expired session no longer counts against the cap.
      expect((await send(expiring.url, { headers: { accept: jsonAndSse }, body: initializeBody() })).status).toBe(200);
    } finally {
      await expiring.close();
    }
  });

  it('close() lets an in-flight call finish, then refuses new work', async () => {
    const closing = await serveHttp(createFixtureServer());
    const session = await openSession(closing.url);
    const inFlight = send(closing.url, {
      headers: { ...session, accept: 'application/json' },
      body: call(1, 'wait', { steps: 10, stepMs: 20 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closing.close();
    const answer = await inFlight;
    await closed;
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ id: 1, result: { content: [{ text: 'waited 10 steps' }] } });
    await expect(
      send(closing.url, { headers: session, body: { jsonrpc: '2.0', id: 2, method: 'ping' } }),
    ).rejects.toThrow();
  });
});
