import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../../__fixtures__/fixture-tools.ts';
import { definePrompt } from '../../prompts/define-prompt.ts';
import { defineResource } from '../../resources/define-resource.ts';
import { defineResourceTemplate } from '../../resources/define-resource-template.ts';
import { recordMessages } from '../../testing/message-recorder.ts';
import { defineTool } from '../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

const server = createFixtureServer({
  prompts: [
    definePrompt({
      name: 'greet',
      description: 'Greets someone by name',
      arguments: z.object({ name: z.string().describe('Who to greet') }),
      complete: { name: ['Ada', 'Alan', 'Grace'] },
      get: ({ name }) => `Say hello to ${name}`,
    }),
  ],
  resources: [defineResource({ uri: 'memo://today', name: 'today', mimeType: 'text/plain', read: () => 'buy milk' })],
  resourceTemplates: [
    defineResourceTemplate({
      uriTemplate: 'memo://days/{day}',
      name: 'day',
      complete: { day: ['monday', 'tuesday'] },
      read: (_uri, { day }) => `nothing planned on ${day}`,
    }),
  ],
});
server.addTool(
  defineTool({
    name: 'summarise',
    description: 'Asks the client model to summarise the text.',
    input: z.object({ text: z.string() }),
    run: async ({ text }, ctx) => {
      const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
      return answer.content.type === 'text' ? `${answer.model}: ${answer.content.text}` : 'no text';
    },
  }),
);
server.addTool(
  defineTool({
    name: 'show_roots',
    description: 'Lists the client roots.',
    input: z.object({}),
    run: async (_args, ctx) => JSON.stringify((await ctx.roots())?.map((root) => root.uri) ?? null),
  }),
);

let http: HttpServerHandle;
beforeAll(async () => {
  http = await serveHttp(server);
});
afterAll(async () => {
  await http.close();
});

describe('SDK v1 client over Streamable HTTP', () => {
  it('initializes, lists, calls, streams progress, elicits, samples, lists roots; every message schema-valid', async () => {
    const client = new ClientV1(
      { name: 'v1', version: '1.0.0' },
      { capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirmed: true } }));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const asked = request.params.messages[0]?.content as { text?: string } | undefined;
      return {
        role: 'assistant',
        content: { type: 'text', text: `summary of ${asked?.text ?? ''}` },
        model: 'test-model',
      };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    const recording = recordMessages(new HttpTransportV1(new URL(http.url)));
    await client.connect(recording.transport);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect(await client.callTool({ name: 'echo', arguments: { text: 'über HTTP' } })).toMatchObject({
      content: [{ type: 'text', text: 'über HTTP' }],
    });
    const progress: number[] = [];
    const waited = await client.callTool({ name: 'wait', arguments: { steps: 5, stepMs: 5 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(waited).toMatchObject({ content: [{ text: 'waited 5 steps' }] });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    expect(await client.callTool({ name: 'confirm_delete', arguments: { target: 'x' } })).toMatchObject({
      structuredContent: { confirmed: true, action: 'accept' },
    });
    expect(await client.callTool({ name: 'summarise', arguments: { text: 'a long text' } })).toMatchObject({
      content: [{ text: 'test-model: summary of a long text' }],
    });
    expect(await client.callTool({ name: 'show_roots', arguments: {} })).toMatchObject({
      content: [{ text: '["file:///work"]' }],
    });
    await client.close();
    expect(recording.specViolations()).toEqual([]);
  });

  it('cancels a call through its AbortSignal; the server stops and answers nothing for it', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new HttpTransportV1(new URL(http.url)));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { steps: 1000, stepMs: 5 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('changed my mind'), 50);
    await expect(call).rejects.toThrow();
    // The session is still good after the cancellation.
    expect(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).toMatchObject({
      content: [{ text: 'still here' }],
    });
    await client.close();
  });

  it('reads resources and templates, gets prompts, completes, and hears resource updates', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    const recording = recordMessages(new HttpTransportV1(new URL(http.url)));
    await client.connect(recording.transport);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    expect((await client.listResources()).resources).toEqual([
      { uri: 'memo://today', name: 'today', mimeType: 'text/plain' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'memo://days/{day}', name: 'day' },
    ]);
    expect((await client.readResource({ uri: 'memo://days/friday' })).contents).toEqual([
      { uri: 'memo://days/friday', mimeType: 'text/plain', text: 'nothing planned on friday' },
    ]);
    await expect(client.readResource({ uri: 'memo://nowhere' })).rejects.toThrow(/Resource not found/);
    expect(await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
      description: 'Greets someone by name',
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada' } }],
    });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow(/name/);
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'a' } }))
        .completion,
    ).toEqual({ values: ['Ada', 'Alan'], total: 2, hasMore: false });
    expect(
      (
        await client.complete({
          ref: { type: 'ref/resource', uri: 'memo://days/{day}' },
          argument: { name: 'day', value: 'T' },
        })
      ).completion.values,
    ).toEqual(['tuesday']);

    await client.subscribeResource({ uri: 'memo://today' });
    const stream = new Promise<void>((resolve) => setTimeout(resolve, 100)); // the GET stream opens after initialized
    await stream;
    server.notifyResourceUpdated('memo://today');
    server.notifyResourceUpdated('memo://elsewhere');
    for (let attempt = 0; attempt < 50 && updated.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(updated).toEqual(['memo://today']);
    await client.close();
    expect(recording.specViolations()).toEqual([]);
  });
});

describe('SDK v2 client (legacy mode) over Streamable HTTP', () => {
  it('initializes, calls with progress, elicits, and cancels', async () => {
    const client = new ClientV2({ name: 'v2', version: '2.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const recording = recordMessages(new HttpTransportV2(new URL(http.url)));
    await client.connect(recording.transport);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      structuredContent: { sum: 5 },
    });
    const progress: number[] = [];
    await client.callTool(
      { name: 'wait', arguments: { steps: 4, stepMs: 5 } },
      { onprogress: (update: { progress: number }) => progress.push(update.progress) },
    );
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(await client.callTool({ name: 'confirm_delete', arguments: { target: 'y' } })).toMatchObject({
      structuredContent: { confirmed: false, action: 'decline' },
    });
    // v2 cancels by dropping the call's stream; the 2025 spec says that is no cancellation, so the call runs on.
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { steps: 30, stepMs: 5 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toThrow();
    await client.close();
    expect(recording.protocolVersion).toBe('2025-11-25');
    expect(recording.specViolations()).toEqual([]);
  });
});
