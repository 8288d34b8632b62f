import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../../__fixtures__/fixture-tools.ts';
import { connectTestClient } from '../../testing/connect-test-client.ts';
import { defineTool } from '../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modernPost(url: string, id: number, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Reads SSE `data:` lines until `count` messages have arrived. */
async function readEvents(response: Response, count: number): Promise<Record<string, unknown>[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: Record<string, unknown>[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      if (data !== undefined) events.push(JSON.parse(data.slice(6)));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  reader.releaseLock();
  return events;
}

describe('one HTTP endpoint, both eras at once', () => {
  const cancelled: string[] = [];
  const server = createFixtureServer();
  server.addTool(
    defineTool({
      name: 'hold',
      description: 'Waits until cancelled',
      input: z.object({ label: z.string() }),
      run: ({ label }, context) =>
        new Promise<string>((resolve) => {
          context.signal.addEventListener('abort', () => {
            cancelled.push(label);
            resolve('cancelled');
          });
        }),
    }),
  );
  let http: HttpServerHandle;

  beforeAll(async () => {
    http = await serveHttp(server, { host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await http.close();
    await server.close();
  });

  it('serves a 2025 session and 2026 requests side by side, each in its own era', async () => {
    const target = { server };
    // The kit serves its own endpoint for a server object; here both clients share this one.
    const legacy = await connectTestClient(target, { client: 'v2-legacy', transport: 'memory' });
    const { StreamableHTTPClientTransport, Client } = await import('@modelcontextprotocol/client');
    const sessionClient = new Client({ name: 'legacy', version: '1' }, {
      versionNegotiation: { mode: 'legacy' },
    } as never);
    const modernClient = new Client({ name: 'modern', version: '1' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await sessionClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await modernClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(sessionClient.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(modernClient.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(http.sessionCount).toBe(1);
    const calls = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? sessionClient : modernClient).callTool({ name: 'echo', arguments: { text: `n${index}` } }),
      ),
    );
    expect(calls.map((result) => (result.content as { text: string }[])[0]?.text)).toEqual(
      Array.from({ length: 20 }, (_, index) => `n${index}`),
    );
    // 2026 requests leave no session behind.
    expect(http.sessionCount).toBe(1);
    await Promise.all([sessionClient.close(), modernClient.close(), legacy.close()]);
  });

  it('answers the 2026 errors with the HTTP status the revision gives them', async () => {
    const unknown = await modernPost(http.url, 1, 'ping', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ id: 1, error: { code: -32601 } });
    const mismatch = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', _meta: meta } }),
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 2, error: { code: -32020 } });
    const noMeta = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }),
    });
    expect(noMeta.status).toBe(400);
    expect(await noMeta.json()).toMatchObject({ id: 3, error: { code: -32602 } });
  });

  it('cancels a 2026 request when its client closes the response stream', async () => {
    const controller = new AbortController();
    const pending = modernPost(
      http.url,
      4,
      'tools/call',
      { name: 'hold', arguments: { label: 'closed' } },
      controller.signal,
    );
    await expect.poll(() => server.toolNames().includes('hold')).toBe(true);
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    await expect.poll(() => cancelled).toEqual(['closed']);
  });

  it('streams subscribed changes on subscriptions/listen, and ends it gracefully when the endpoint closes', async () => {
    const local = createFixtureServer();
    const endpoint = await serveHttp(local, { host: '127.0.0.1', port: 0 });
    const response = await modernPost(endpoint.url, 9, 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const [ack] = await readEvents(response, 1);
    expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    local.removeTool('echo');
    const [changed] = await readEvents(response, 1);
    expect(changed).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
    const closing = endpoint.close();
    const [last] = await readEvents(response, 1);
    expect(last).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
    });
    await closing;
    await local.close();
  });
});
