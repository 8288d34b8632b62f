import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer, type McpServer } from '../server/create-mcp-server.ts';
import {
  connectTestClient,
  JsonRpcFailure,
  type TestClient,
  type TestClientKind,
  testClientKinds,
} from '../testing/connect-test-client.ts';
import { defineTool } from '../tools/define-tool.ts';
import { defineView } from './define-view.ts';
import { toolViewMeta } from './tool-view-meta.ts';
import { viewMimeType } from './ui-extension.ts';
import { viewDocument } from './view-document.ts';

const html = viewDocument({ title: 'Count', style: 'p{margin:0}', body: '<p id="n"></p>', script: '' });
const noExternalOrigins = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

const servers: McpServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

function viewServer(): McpServer {
  const server = createMcpServer({
    name: 'views-test',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'count',
        description: 'Counts to n.',
        input: z.object({ n: z.number().int() }),
        meta: toolViewMeta({ resourceUri: 'ui://views-test/count' }),
        run: ({ n }) => `1 to ${n}`,
      }),
      defineTool({
        name: 'count_page',
        description: 'A page of the count, for the view.',
        input: z.object({ offset: z.number().int() }),
        meta: toolViewMeta({ visibility: ['app'] }),
        run: ({ offset }) => `from ${offset}`,
      }),
    ],
    resources: [defineView({ uri: 'ui://views-test/count', name: 'count-view', html })],
  });
  servers.push(server);
  return server;
}

async function connect(kind: TestClientKind, ui: boolean, transport: 'memory' | 'http' = 'memory') {
  const client = await connectTestClient({ server: viewServer() }, { client: kind, transport, ui });
  clients.push(client);
  return client;
}

interface ResourceSdk {
  listResources(): Promise<{ resources: Record<string, unknown>[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
}

describe.each(testClientKinds)('views with the %s client', (kind) => {
  it('declares the view on the tool, nested and flat, and keeps model tools visible to the model', async () => {
    const client = await connect(kind, true);
    const tools = (await client.listTools()) as { name: string; _meta?: Record<string, unknown> }[];
    const count = tools.find((tool) => tool.name === 'count');
    expect(count?._meta).toEqual({
      ui: { resourceUri: 'ui://views-test/count' },
      'ui/resourceUri': 'ui://views-test/count',
    });
    expect(tools.find((tool) => tool.name === 'count_page')?._meta).toEqual({ ui: { visibility: ['app'] } });
    expect(client.protocolProblems()).toEqual([]);
  });

  it('serves the view as text/html;profile=mcp-app with an empty CSP on the list entry and the read', async () => {
    const client = await connect(kind, true);
    const sdk = client.sdk as ResourceSdk;
    const entry = (await sdk.listResources()).resources.find((resource) => resource.uri === 'ui://views-test/count');
    expect(entry).toMatchObject({ mimeType: viewMimeType, _meta: { ui: { csp: noExternalOrigins } } });
    const { contents } = await sdk.readResource({ uri: 'ui://views-test/count' });
    expect(contents).toEqual([
      { uri: 'ui://views-test/count', mimeType: viewMimeType, text: html, _meta: { ui: { csp: noExternalOrigins } } },
    ]);
    expect(client.protocolProblems()).toEqual([]);
  });

  it('lets a client that renders views call an app-only tool', async () => {
    const client = await connect(kind, true);
    expect((await client.callTool('count_page', { offset: 50 })).content).toEqual([{ type: 'text', text: 'from 50' }]);
  });

  it('hides app-only tools from a client that renders no views, in the list and for calls', async () => {
    const client = await connect(kind, false);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['count']);
    const call = client.callTool('count_page', { offset: 50 });
    await expect(call).rejects.toThrow(/Unknown tool: "count_page"/);
    // The tool with a view still answers in full text for a client that shows only text.
    expect((await client.callTool('count', { n: 3 })).content).toEqual([{ type: 'text', text: '1 to 3' }]);
  });
});

describe('the 2026 era', () => {
  it('reads the capability from each request, so one connection sees what each request declares', async () => {
    const client = await connect('v2-modern', false, 'http');
    const declared = {
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': {} } },
    };
    const withUi = await client.request('tools/list', { _meta: declared });
    expect((withUi.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['count', 'count_page']);
    const without = await client.request('tools/list');
    expect((without.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['count']);
    await expect(client.request('tools/call', { name: 'count_page', arguments: { offset: 1 } })).rejects.toThrow(
      JsonRpcFailure,
    );
  });

  it('does not mark a tool list that depends on the capability as public', async () => {
    const client = await connect('v2-modern', true);
    expect(await client.request('tools/list')).toMatchObject({ cacheScope: 'private' });
    const plain = createMcpServer({
      name: 'plain',
      version: '1.0.0',
      tools: [defineTool({ name: 'echo', description: 'Echoes.', input: z.object({}), run: () => 'echo' })],
    });
    servers.push(plain);
    const other = await connectTestClient({ server: plain }, { client: 'v2-modern', transport: 'memory' });
    clients.push(other);
    expect(await other.request('tools/list')).toMatchObject({ cacheScope: 'public' });
  });

  it('ignores a capability that lists other MIME types only', async () => {
    const client = await connect('v2-modern', false);
    const declared = {
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/uri-list'] } },
      },
    };
    const listed = await client.request('tools/list', { _meta: declared });
    expect((listed.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['count']);
  });
});

describe('definitions', () => {
  it('refuses a view or a resourceUri outside ui://, and an empty visibility', () => {
    expect(() => defineView({ uri: 'https://example.com/view', name: 'v', html })).toThrow(/ui:\/\//);
    expect(() => toolViewMeta({ resourceUri: 'file:///view.html' })).toThrow(/ui:\/\//);
    expect(() => toolViewMeta({ visibility: [] })).toThrow(/visibility/);
  });

  it('builds a self-contained document: the runtime inline and no http(s) source or link', () => {
    expect(html).toContain('var mcpView');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?\s*https?:/i);
    expect(Buffer.byteLength(html)).toBeLessThan(5_000);
  });
});
