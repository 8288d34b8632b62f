import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { editReviewViewHtml, editReviewViewUri } from './edit-review-view.ts';

let directory: string;
const clients: TestClient[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-edit-review-'));
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const close of closers.splice(0)) await close();
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function connect(kind: (typeof testClientKinds)[number], ui: boolean): Promise<TestClient> {
  const server = createFilesystemServer({ directories: [directory] });
  closers.push(() => server.close());
  const client = await connectTestClient({ server }, { client: kind, transport: 'memory', ui });
  clients.push(client);
  return client;
}

const edits = [{ oldText: 'two', newText: 'TWO' }];

describe.each(testClientKinds)('the edit review with the %s client', (kind) => {
  it('declares the view on edit_file and lists apply_reviewed_edit only for a client that renders views', async () => {
    const withUi = (await (await connect(kind, true)).listTools()) as { name: string; _meta?: unknown }[];
    expect(withUi.find((tool) => tool.name === 'edit_file')?._meta).toEqual({
      ui: { resourceUri: editReviewViewUri },
      'ui/resourceUri': editReviewViewUri,
    });
    expect(withUi.find((tool) => tool.name === 'apply_reviewed_edit')?._meta).toEqual({ ui: { visibility: ['app'] } });
    const without = (await (await connect(kind, false)).listTools()).map((tool) => tool.name);
    expect(without).toContain('edit_file');
    expect(without).not.toContain('apply_reviewed_edit');
  });

  it('applies a reviewed dry run, and refuses it once the file changed', async () => {
    const client = await connect(kind, true);
    const path = join(directory, `${kind}.txt`);
    writeFileSync(path, 'one\ntwo\nthree\n');
    const dry = await client.callTool('edit_file', { path, edits, dryRun: true });
    const { digest, written } = dry.structuredContent as { digest: string; written: boolean };
    expect(written).toBe(false);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    // The text stays complete on its own: the diff.
    expect(dry.content[0]?.text).toContain('-two\n+TWO');
    const applied = await client.callTool('apply_reviewed_edit', { path, edits, digest });
    expect(applied.structuredContent).toMatchObject({ written: true, digest });
    expect(readFileSync(path, 'utf8')).toBe('one\nTWO\nthree\n');
    // The same review again: the file is not what was reviewed any more.
    const stale = await client.callTool('apply_reviewed_edit', {
      path,
      edits: [{ oldText: 'one', newText: '1' }],
      digest,
    });
    expect(stale.isError).toBe(true);
    expect(stale.content[0]?.text).toMatch(/changed since the dry run/);
    expect(readFileSync(path, 'utf8')).toBe('one\nTWO\nthree\n');
  });
});

it('refuses apply_reviewed_edit from a client that renders no views', async () => {
  const client = await connect('v2-modern', false);
  await expect(
    client.callTool('apply_reviewed_edit', { path: join(directory, 'x.txt'), edits, digest: '0'.repeat(64) }),
  ).rejects.toThrow(/Unknown tool/);
});

it('keeps the model’s tool list within budget: the app-only tool is not counted', async () => {
  const client = await connect('v1', true);
  expect(toolTokenOverruns('filesystem', await client.listTools())).toEqual([]);
});

it('serves a view within 30 KB, self-contained, with no http(s) source or link', async () => {
  const client = await connect('v2-modern', true);
  const sdk = client.sdk as {
    readResource(params: {
      uri: string;
    }): Promise<{ contents: { mimeType?: string; text?: string; _meta?: unknown }[] }>;
  };
  const [view] = (await sdk.readResource({ uri: editReviewViewUri })).contents;
  expect(view?.mimeType).toBe('text/html;profile=mcp-app');
  expect(view?._meta).toEqual({
    ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } },
  });
  const html = editReviewViewHtml();
  expect(view?.text).toBe(html);
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  expect(html).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
  expect(html).not.toMatch(/<(?:link|iframe|object|embed|base)\b/i);
});
