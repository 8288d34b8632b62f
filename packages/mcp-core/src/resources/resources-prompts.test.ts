import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import { definePrompt } from '../prompts/define-prompt.ts';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { defineResource } from './define-resource.ts';
import { defineResourceTemplate } from './define-resource-template.ts';
import { compileUriTemplate } from './uri-template.ts';

describe('URI templates', () => {
  it.each([
    ['db://{name}/tables/{table}', 'db://main/tables/users', { name: 'main', table: 'users' }],
    ['db://{name}/tables/{table}', 'db://main/tables/a%20b', { name: 'main', table: 'a b' }],
    ['db://{name}/tables/{table}', 'db://main/tables/a/b', undefined],
    ['file://{+path}', 'file:///home/ada/notes.txt', { path: '/home/ada/notes.txt' }],
    ['docs{/section,page}', 'docs/intro/install', { section: 'intro', page: 'install' }],
    ['search://items{?q,limit}', 'search://items?limit=5&q=red%20shoes', { q: 'red shoes', limit: '5' }],
    ['search://items{?q,limit}', 'search://items', {}],
    ['logo{.format}', 'logo.png', { format: 'png' }],
    ['x://{id}', 'x://%E0%A4%A', undefined],
  ])('%s matches %s as %j', (template, uri, expected) => {
    expect(compileUriTemplate(template).match(uri)).toEqual(expected);
  });

  it.each([['x://{a'], ['x://{a*}'], ['x://{a:3}'], ['x://{?q}/more']])('refuses %s at definition time', (template) => {
    expect(() => compileUriTemplate(template)).toThrow(/URI template/);
  });
});

function server() {
  return createMcpServer({
    name: 'docs',
    version: '1.0.0',
    pageSize: 2,
    resources: ['a', 'b', 'c'].map((letter) =>
      defineResource({ uri: `memo://${letter}`, name: letter, read: () => `memo ${letter}` }),
    ),
    resourceTemplates: [
      defineResourceTemplate({
        uriTemplate: 'memo://bytes/{n}',
        name: 'bytes',
        mimeType: 'application/octet-stream',
        read: (_uri, { n }) => {
          const count = Number(n);
          if (!Number.isInteger(count) || count > 16)
            throw new ToolError(`n must be a whole number up to 16; got ${n}`);
          return new Uint8Array(count).fill(7);
        },
      }),
      defineResourceTemplate({
        uriTemplate: 'memo://broken/{x}',
        name: 'broken',
        read: () => {
          throw new Error('disk on fire at /secret/path');
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: 'plan',
        description: 'Plans a day',
        arguments: z.object({ day: z.enum(['mon', 'tue']), mood: z.string().optional() }),
        get: ({ day, mood }) => ({ description: `A ${mood ?? 'calm'} ${day}`, messages: [] }),
      }),
      definePrompt({
        name: 'fails',
        description: 'Always fails',
        get: () => {
          throw new ProtocolError(-32602, 'Nothing to plan');
        },
      }),
    ],
    onServerError: () => {},
  });
}

describe('resources over the wire', () => {
  it('declares resources, prompts and completions only when offered', async () => {
    const withThem = await connectRawPeer(server());
    const capabilities = ((await withThem.initialize()).result as { capabilities: Record<string, unknown> })
      .capabilities;
    expect(capabilities).toEqual({
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    const bare = await connectRawPeer(createMcpServer({ name: 'bare', version: '1.0.0' }));
    const bareCapabilities = ((await bare.initialize()).result as { capabilities: Record<string, unknown> })
      .capabilities;
    expect(bareCapabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    for (const method of ['resources/list', 'prompts/list', 'completion/complete']) {
      expect((await bare.request(method, {})).error).toMatchObject({ code: -32601 });
    }
  });

  it('pages resources by URI and reads bytes as base64 with the template MIME type', async () => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    const first = (await peer.request('resources/list')).result as { resources: { uri: string }[]; nextCursor: string };
    const second = (await peer.request('resources/list', { cursor: first.nextCursor })).result as {
      resources: { uri: string }[];
      nextCursor?: string;
    };
    expect([...first.resources, ...second.resources].map((r) => r.uri)).toEqual(['memo://a', 'memo://b', 'memo://c']);
    expect(second.nextCursor).toBeUndefined();
    expect((await peer.request('resources/read', { uri: 'memo://bytes/3' })).result).toEqual({
      contents: [{ uri: 'memo://bytes/3', mimeType: 'application/octet-stream', blob: 'BwcH' }],
    });
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it.each([
    ['an unknown URI', { uri: 'memo://zzz/1/2' }, -32002, /Resource not found: memo:\/\/zzz\/1\/2/],
    ['no URI', {}, -32602, /params.uri/],
    ['a ToolError from read', { uri: 'memo://bytes/99' }, -32603, /n must be a whole number up to 16; got 99/],
    ['a crash in read', { uri: 'memo://broken/1' }, -32603, /^Internal error$/],
  ])('resources/read of %s is a JSON-RPC error', async (_name, params, code, message) => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    const { error } = (await peer.request('resources/read', params)) as { error: { code: number; message: string } };
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('/secret');
  });

  it('subscribes only to URIs that exist', async () => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    expect((await peer.request('resources/subscribe', { uri: 'memo://a' })).result).toEqual({});
    expect((await peer.request('resources/subscribe', { uri: 'memo://bytes/4' })).result).toEqual({});
    expect((await peer.request('resources/subscribe', { uri: 'memo://nope/x/y' })).error).toMatchObject({
      code: -32002,
    });
    expect((await peer.request('resources/unsubscribe', { uri: 'memo://a' })).result).toEqual({});
  });
});

describe('prompts over the wire', () => {
  it('lists arguments from the zod schema', async () => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    expect((await peer.request('prompts/list')).result).toEqual({
      prompts: [
        { name: 'fails', description: 'Always fails' },
        {
          name: 'plan',
          description: 'Plans a day',
          arguments: [
            { name: 'day', required: true },
            { name: 'mood', required: false },
          ],
        },
      ],
    });
  });

  it.each([
    ['an unknown prompt', { name: 'nope' }, /Unknown prompt: "nope"/],
    ['a missing required argument', { name: 'plan', arguments: {} }, /Invalid arguments for prompt "plan":\n- day:/],
    ['a value outside the enum', { name: 'plan', arguments: { day: 'sun' } }, /- day: /],
    ['a ProtocolError from get', { name: 'fails' }, /Nothing to plan/],
  ])('prompts/get with %s is -32602 with a message that says why', async (_name, params, message) => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    const { error } = (await peer.request('prompts/get', params)) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(message);
  });

  it('keeps the result description from get, else the prompt description', async () => {
    const peer = await connectRawPeer(server());
    await peer.initialize();
    expect((await peer.request('prompts/get', { name: 'plan', arguments: { day: 'tue' } })).result).toEqual({
      description: 'A calm tue',
      messages: [],
    });
  });

  it('refuses prompt arguments that are not strings at definition time', () => {
    expect(() => definePrompt({ name: 'bad', arguments: z.object({ count: z.number() }), get: () => 'x' })).toThrow(
      /argument "count" must be a string or enum/,
    );
  });
});
