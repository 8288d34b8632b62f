import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer, echoTool, onePixelPng } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';
import { defineTool } from './define-tool.ts';

function manyTools(count: number) {
  return Array.from({ length: count }, (_, index) =>
    defineTool({
      name: `tool_${String(count - index).padStart(3, '0')}`,
      description: `Tool number ${count - index}.`,
      input: z.object({}),
      run: () => 'ok',
    }),
  );
}

describe('tools/list', () => {
  it('lists tools sorted by name, whatever the order of registration', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const { tools, nextCursor } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'add',
      'ask_name',
      'confirm_delete',
      'echo',
      'fail',
      'log',
      'media',
      'wait',
    ]);
    expect(nextCursor).toBeUndefined();
    expect(recording.specViolations()).toEqual([]);
  });

  it('pages with opaque cursors that survive tools added between pages', async () => {
    const server = createMcpServer({ name: 'many', version: '1', tools: manyTools(250), pageSize: 100 });
    const peer = await connectRawPeer(server);
    await peer.initialize();
    const first = (await peer.request('tools/list')).result as { tools: { name: string }[]; nextCursor: string };
    expect(first.tools).toHaveLength(100);
    expect(first.tools[0]?.name).toBe('tool_001');
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    server.addTool(defineTool({ name: 'tool_000', description: 'Sorts first.', input: z.object({}), run: () => 'ok' }));
    const second = (await peer.request('tools/list', { cursor: first.nextCursor })).result as {
      tools: { name: string }[];
      nextCursor: string;
    };
    expect(second.tools[0]?.name).toBe('tool_101');
    const third = (await peer.request('tools/list', { cursor: second.nextCursor })).result as {
      tools: { name: string }[];
      nextCursor?: string;
    };
    expect(third.tools.map((tool) => tool.name).at(-1)).toBe('tool_250');
    expect(third.tools).toHaveLength(50);
    expect(third.nextCursor).toBeUndefined();
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it('is walked whole by both SDK clients', async () => {
    for (const client of [new ClientV1({ name: 'a', version: '1' }), new ClientV2({ name: 'b', version: '1' })]) {
      const server = createMcpServer({ name: 'many', version: '1', tools: manyTools(120), pageSize: 50 });
      await connectInMemory(server, client);
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? undefined : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(names).toHaveLength(120);
      expect(new Set(names).size).toBe(120);
    }
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses a page size of %s when the server is created', (pageSize) => {
    expect(() => createMcpServer({ name: 's', version: '1', pageSize })).toThrow(/pageSize must be a whole number/);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['a number', 5],
    ['base64 of something else', Buffer.from('offset:3').toString('base64url')],
    ['a cursor with junk appended', `${Buffer.from('after:tool_001').toString('base64url')}!!`],
    ['a very long string', 'A'.repeat(5000)],
  ])('refuses %s as a cursor with -32602', async (_name, cursor) => {
    const peer = await connectRawPeer(createMcpServer({ name: 'many', version: '1', tools: manyTools(3) }));
    await peer.initialize();
    const response = await peer.request('tools/list', { cursor });
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid cursor') });
  });
});

describe('tools/list_changed', () => {
  it('is sent once per burst when tools are added, removed, enabled or disabled', async () => {
    const server = createFixtureServer();
    const client = new ClientV1({ name: 't', version: '1' });
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    const { recording } = await connectInMemory(server, client);
    const extra = defineTool({ name: 'extra', description: 'Extra.', input: z.object({}), run: () => 'x' });
    server.addTool(extra);
    server.removeTool('echo');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notified).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('extra');
    server.setToolEnabled('extra', false);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notified).toBe(2);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('extra');
    expect(names).not.toContain('echo');
    const disabled = await client.callTool({ name: 'extra', arguments: {} }).catch((error: Error) => error);
    expect(String(disabled)).toMatch(/Unknown tool/);
    server.setToolEnabled('extra', false); // no change, no notification
    server.addTool(echoTool);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notified).toBe(3);
    expect(recording.specViolations()).toEqual([]);
  });

  it('refuses a second tool of the same name', () => {
    const server = createFixtureServer();
    expect(() => server.addTool(echoTool)).toThrow(/already registered/);
  });
});

describe('tools/call', () => {
  it('returns text and structured results, with the JSON mirror of structured content', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'héllo 👋' } })).toEqual({
      content: [{ type: 'text', text: 'héllo 👋' }],
    });
    expect(await client.callTool({ name: 'add', arguments: { a: 1.5, b: 2 } })).toEqual({
      content: [{ type: 'text', text: '{"sum":3.5}' }],
      structuredContent: { sum: 3.5 },
    });
    expect(recording.specViolations()).toEqual([]);
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'wether', arguments: {} });
    expect(response.error).toEqual({
      code: -32602,
      message: 'Unknown tool: "wether". Call tools/list for the available tools.',
    });
  });

  it.each([
    [{}, 'params.name'],
    [{ name: 5 }, 'params.name'],
    [{ name: 'echo', arguments: 'text' }, 'params.arguments'],
    [{ name: 'echo', arguments: ['text'] }, 'params.arguments'],
  ])('answers malformed params %j with -32602', async (params, field) => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.initialize();
    const response = await peer.request('tools/call', params);
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringContaining(field) });
  });

  it('answers bad arguments with an isError result naming each field and what was expected (SEP-1303)', async () => {
    const client = new ClientV2({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'add', arguments: { a: 'one', b: 5000 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          'Invalid arguments for tool "add":',
          '- a: Invalid input: expected number, received string',
          '- b: Too big: expected number to be <=1000',
          'Fix these fields and call the tool again.',
        ].join('\n'),
      },
    ]);
    const missing = await client.callTool({ name: 'echo' });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]?.text).toContain(
      '- text: Invalid input: expected string, received undefined',
    );
    expect(recording.specViolations()).toEqual([]);
  });

  it('turns a ToolError into its message, and any other throw into a safe message, and keeps serving', async () => {
    const server = createFixtureServer();
    const client = new ClientV1({ name: 't', version: '1' });
    const { recording } = await connectInMemory(server, client);
    expect(await client.callTool({ name: 'fail', arguments: { how: 'tool-error' } })).toEqual({
      content: [{ type: 'text', text: 'The widget is locked; unlock it first.' }],
      isError: true,
    });
    const crash = await client.callTool({ name: 'fail', arguments: { how: 'crash' } });
    expect(crash.isError).toBe(true);
    expect(JSON.stringify(crash)).not.toMatch(/alice|secrets|ENOENT/);
    expect((crash.content as { text: string }[])[0]?.text).toMatch(/^Tool "fail" failed unexpectedly/);
    expect(server.serverErrors).toEqual([expect.stringContaining('ENOENT: /home/alice/.secrets/token.txt')]);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).toMatchObject({
      content: [{ text: 'still here' }],
    });
    expect(recording.specViolations()).toEqual([]);
  });

  it('validates structured output before sending it', async () => {
    const server = createFixtureServer();
    const client = new ClientV1({ name: 't', version: '1' });
    await connectInMemory(server, client);
    for (const how of ['bad-output', 'nothing']) {
      const result = await client.callTool({ name: 'fail', arguments: { how } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content as { text: string }[])[0]?.text).toContain('does not match its declared schema');
    }
    expect(server.serverErrors).toHaveLength(2);
  });

  it('sends every content type with annotations, valid under the official schema', async () => {
    const client = new ClientV2({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'media', arguments: {} });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'hello',
        annotations: { audience: ['user', 'assistant'], priority: 1, lastModified: '1970-01-01T00:00:00.000Z' },
      },
      { type: 'image', data: onePixelPng, mimeType: 'image/png' },
    ]);
    expect(recording.specViolations()).toEqual([]);
  });
});

describe('server close', () => {
  it('closes the connections, then runs onClose once however often close is called', async () => {
    const events: string[] = [];
    const server = createMcpServer({ name: 's', version: '1', onClose: () => void events.push('released') });
    const client = new ClientV1({ name: 't', version: '1' });
    client.onclose = () => events.push('client closed');
    await connectInMemory(server, client);
    await Promise.all([server.close(), server.close()]);
    await server.close();
    expect(events).toEqual(['client closed', 'released']);
  });
});
