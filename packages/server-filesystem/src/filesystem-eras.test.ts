import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@toolshed/mcp-core';
import {
  binTestCases,
  connectTestClient,
  type TestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, secretText } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

let sandbox: Sandbox;

beforeAll(() => {
  sandbox = createSandbox();
});

afterAll(() => sandbox.remove());

const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text ?? '';

/** The tools/call requests the client sent: one per attempt. */
const toolCallsSent = (client: TestClient) =>
  client.recording.messages.filter(
    (entry) => entry.direction === 'to-server' && (entry.message as { method?: string }).method === 'tools/call',
  ).length;

async function expectFilesystemWorks(target: TestTarget, client: TestClientKind, transport: TestTransportKind) {
  const connection = await connectTestClient(target, { client, transport });
  const written = join(sandbox.allowed, `written-${client}-${transport}.txt`);
  try {
    expect((await connection.listTools()).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_directory', 'list_allowed_directories']),
    );
    const read = await connection.callTool('read_text_file', { path: 'hello.txt' });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toBe('Hello, world!\nSecond line\nThird line\n');

    const write = await connection.callTool('write_file', { path: written, content: `from ${client}` });
    expect(write.isError).toBeFalsy();
    expect(write.structuredContent).toMatchObject({ created: true });
    expect(readFileSync(written, 'utf8')).toBe(`from ${client}`);

    const listing = await connection.callTool('list_directory', { path: sandbox.allowed });
    expect(listing.isError).toBeFalsy();
    expect(textOf(listing).split('\n')).toEqual(
      expect.arrayContaining(['[FILE] hello.txt', '[DIR] docs', `[FILE] written-${client}-${transport}.txt`]),
    );

    const bad = await connection.callTool('read_text_file', { path: 'hello.txt', head: 0 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/head/);
    const outside = await connection.callTool('read_text_file', { path: sandbox.secret });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).not.toContain(secretText);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed-filesystem in both protocol eras', () => {
  // A generous cap, not a speed bar: each case starts a Node process that loads the bin from TypeScript source.
  it.each(binTestCases)(
    '%s client over %s to the bin',
    (client, transport) => expectFilesystemWorks({ bin: [bin, sandbox.allowed] }, client, transport),
    60_000,
  );

  it.each(testClientKinds)('%s client in memory to createFilesystemServer', async (client) => {
    const server = createFilesystemServer({ directories: [sandbox.allowed] });
    try {
      await expectFilesystemWorks({ server }, client, 'memory');
    } finally {
      await server.close();
    }
  });
});

describe('client roots narrow access in both eras', () => {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  async function connect(client: TestClientKind, roots?: Root[]): Promise<TestClient> {
    const server = createFilesystemServer({ directories: [sandbox.allowed] });
    const connection = await connectTestClient(
      { server },
      { client, transport: 'memory', ...(roots === undefined ? {} : { roots }) },
    );
    open.push(
      () => connection.close(),
      () => server.close(),
    );
    return connection;
  }

  const docsRoot = () => [{ uri: pathToFileURL(join(sandbox.allowed, 'docs')).href }];

  it.each(testClientKinds)('%s client with a root inside: allowed there, refused elsewhere', async (kind) => {
    const client = await connect(kind, docsRoot());
    const docs = join(sandbox.allowed, 'docs');
    const allowedDirectories = await client.callTool('list_allowed_directories');
    expect(allowedDirectories.structuredContent).toMatchObject({ directories: [{ path: docs }] });

    expect(textOf(await client.callTool('read_text_file', { path: join(docs, 'notes.md') }))).toMatch(/^# Notes/);
    const inside = join(docs, `from-${kind}.md`);
    expect((await client.callTool('write_file', { path: inside, content: kind })).isError).toBeFalsy();
    expect(readFileSync(inside, 'utf8')).toBe(kind);
    expect((await client.callTool('list_directory', { path: docs })).isError).toBeFalsy();

    // Inside the operator's directory, outside the client's root.
    const hello = join(sandbox.allowed, 'hello.txt');
    expect((await client.callTool('read_text_file', { path: hello })).isError).toBe(true);
    const beside = join(sandbox.allowed, `beside-root-${kind}.txt`);
    expect((await client.callTool('write_file', { path: beside, content: 'no' })).isError).toBe(true);
    expect(existsSync(beside)).toBe(false);
    expect((await client.callTool('list_directory', { path: sandbox.allowed })).isError).toBe(true);
    expect((await client.callTool('read_text_file', { path: sandbox.secret })).isError).toBe(true);
    expect(client.recording.specViolations()).toEqual([]);
  });

  it.each(testClientKinds)('%s client with a root outside the configured directories gains nothing', async (kind) => {
    const client = await connect(kind, [{ uri: pathToFileURL(sandbox.outside).href }]);
    const refused = await client.callTool('read_text_file', { path: sandbox.secret });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).not.toContain(secretText);
    const planted = join(sandbox.outside, `planted-${kind}.txt`);
    expect((await client.callTool('write_file', { path: planted, content: 'no' })).isError).toBe(true);
    expect(existsSync(planted)).toBe(false);
    expect((await client.callTool('read_text_file', { path: join(sandbox.allowed, 'hello.txt') })).isError).toBe(true);
  });

  it.each(testClientKinds)('%s client without roots gets the configured directories', async (kind) => {
    const client = await connect(kind);
    const allowedDirectories = await client.callTool('list_allowed_directories');
    expect(allowedDirectories.structuredContent).toMatchObject({ directories: [{ path: sandbox.allowed }] });
    expect(textOf(await client.callTool('read_text_file', { path: 'hello.txt' }))).toMatch(/^Hello, world!/);
    expect((await client.callTool('read_text_file', { path: sandbox.secret })).isError).toBe(true);
    // Nothing to ask: one attempt per call in either era.
    expect(toolCallsSent(client)).toBe(3);
  });

  it('v2-modern: roots are asked on every call, and the write happens only in the attempt that has them', async () => {
    const roots = docsRoot();
    const client = await connect('v2-modern', roots);
    const target = join(sandbox.allowed, 'docs', 'after-roots.md');
    // Whether the file existed each time the server asked for roots.
    const existedWhenAsked: boolean[] = [];
    const sdk = client.sdk as { setRequestHandler(method: string, handler: () => unknown): void };
    sdk.setRequestHandler('roots/list', () => {
      existedWhenAsked.push(existsSync(target));
      return { roots };
    });
    const written = await client.callTool('write_file', { path: target, content: 'after' });
    expect(written.isError).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('after');
    expect(existedWhenAsked).toEqual([false]);
    expect(toolCallsSent(client)).toBe(2);
    const interim = client.recording.messages.find(
      (entry) =>
        entry.direction === 'to-client' &&
        (entry.message as { result?: { resultType?: string } }).result?.resultType === 'input_required',
    );
    const questions = (interim?.message as { result?: { inputRequests?: object } } | undefined)?.result?.inputRequests;
    expect(Object.values(questions ?? {})).toEqual([{ method: 'roots/list', params: {} }]);
    // A second call asks again: the 2026 era remembers nothing between requests.
    expect((await client.callTool('read_text_file', { path: target })).isError).toBeFalsy();
    expect(existedWhenAsked).toEqual([false, true]);
    expect(toolCallsSent(client)).toBe(4);
    expect(client.recording.specViolations()).toEqual([]);
  });

  it('v2-legacy, for contrast: roots/list goes out over the session, one attempt per call', async () => {
    const client = await connect('v2-legacy', docsRoot());
    expect(
      (await client.callTool('read_text_file', { path: join(sandbox.allowed, 'docs', 'notes.md') })).isError,
    ).toBeFalsy();
    expect((await client.callTool('read_text_file', { path: join(sandbox.allowed, 'hello.txt') })).isError).toBe(true);
    expect(toolCallsSent(client)).toBe(2);
    const asked = client.recording.messages.filter(
      (entry) => entry.direction === 'to-client' && (entry.message as { method?: string }).method === 'roots/list',
    );
    expect(asked).toHaveLength(2);
  });
});
