import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallContext } from '@toolshed/mcp-core';
import { connectTestClient, type TestClient, type TestClientKind } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostConfig } from './config/load-config.ts';
import { createHost, type Host } from './create-host.ts';
import { UpstreamRpcError } from './upstream/upstream-errors.ts';

/**
 * Tools of the servers the host mounts in process are called directly, with
 * a context made from the caller's: these show what crosses on that path
 * and what does not, in both eras.
 */

let directory: string;
let workspace: string;
let elsewhere: string;
let host: Host;
/** A weather upstream that takes every request and never answers; each request's socket is kept to see it closed. */
let silent: Server;
const silentRequests: IncomingMessage[] = [];
let silentUrl: string;

function configOf(weatherUrl: string) {
  return {
    toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
    mcpServers: {
      // Started without directories: the client's roots would be its grants.
      rootsonly: { package: '@toolshed/server-filesystem', options: { directories: [] } },
      files: { package: '@toolshed/server-filesystem', options: { directories: [workspace, elsewhere] } },
      '@toolshed/server-email': { outboxDirectory: join(directory, 'outbox'), approval: { skip: ['send_email'] } },
      slow: {
        package: '@toolshed/server-weather',
        options: { upstreams: { forecastUrl: weatherUrl, geocodingUrl: weatherUrl } },
        toolTimeoutMs: 60_000,
      },
      limited: {
        package: '@toolshed/server-weather',
        options: { upstreams: { forecastUrl: silentUrl, geocodingUrl: silentUrl } },
        toolTimeoutMs: 300,
      },
    },
  };
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-in-process-'));
  workspace = join(directory, 'workspace');
  elsewhere = join(directory, 'elsewhere');
  mkdirSync(workspace);
  mkdirSync(elsewhere);
  writeFileSync(join(workspace, 'notes.md'), 'Only the operator granted this.\n');
  silent = createServer((request) => {
    silentRequests.push(request);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  host = createHost(parseHostConfig(JSON.stringify(configOf(silentUrl)), join(directory, 'toolshed.json')), {
    log: () => {},
  });
  await host.start();
});

afterAll(async () => {
  await host.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

/** The weather server's requests that are still waiting for an answer the silent upstream never gives. */
const waiting = () => silentRequests.filter((request) => !request.socket.destroyed).length;

let latitude = 10;
/** Coordinates no call has asked for yet, so that no answer can come from the weather server's cache. */
const freshPlace = () => ({ latitude: latitude++, longitude: 20 });

const clientKinds = ['v1', 'v2-modern'] as const satisfies readonly TestClientKind[];

describe.each(clientKinds)('calls to tools of servers mounted in process, from a %s client', (kind) => {
  let client: TestClient;
  const asked: string[] = [];
  let answer: 'accept' | 'decline' = 'accept';

  beforeAll(async () => {
    client = await connectTestClient(
      { server: host.server },
      {
        client: kind,
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return answer === 'accept' ? { action: 'accept', content: { confirmed: true } } : { action: 'decline' };
        },
        roots: [{ uri: pathToFileURL(elsewhere).href, name: 'elsewhere' }],
      },
    );
  });

  afterAll(async () => {
    expect(client.recording.specViolations()).toEqual([]);
    await client.close();
  });

  it("never shows the mounted server the caller's roots", async () => {
    const refused = await client.callTool('rootsonly_list_allowed_directories', {});
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/No directory is allowed/);
    // Had the roots reached it, they would have narrowed its grants to `elsewhere`.
    const read = await client.callTool('files_read_text_file', { path: join(workspace, 'notes.md') });
    expect(read.isError, read.content[0]?.text).toBeFalsy();
    expect(read.content[0]?.text).toMatch(/Only the operator granted this/);
    expect(JSON.stringify(client.recording.messages)).not.toMatch(/roots\/list/);
  });

  it("asks the caller's user what the tool asks, and the tool's side effect happens once", async () => {
    const outbox = join(directory, 'outbox');
    const sent = () => readdirSync(outbox, { withFileTypes: true }).filter((entry) => entry.isFile()).length;
    mkdirSync(outbox, { recursive: true });
    const before = sent();
    asked.length = 0;
    answer = 'accept';
    const message = { to: 'outbox@toolshed.invalid', subject: `Direct from ${kind}`, text: 'Hello' };
    const accepted = await client.callTool('email_send_email', message);
    expect(accepted.isError, accepted.content[0]?.text).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(new RegExp(`Subject: Direct from ${kind}`));
    expect(sent()).toBe(before + 1);
    answer = 'decline';
    const declined = await client.callTool('email_send_email', { ...message, subject: `Declined from ${kind}` });
    expect(declined.isError).toBe(true);
    expect(sent()).toBe(before + 1);
    answer = 'accept';
  });

  it("stops the tool's work when the caller cancels", async () => {
    const controller = new AbortController();
    const before = silentRequests.length;
    const pending = client.callTool('slow_get_current_weather', freshPlace(), { signal: controller.signal });
    // The first call of a file starts the server's HTTP client: on a busy machine that alone may take seconds.
    await expect.poll(() => silentRequests.length, { timeout: 30_000 }).toBe(before + 1);
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    // The tool's own request upstream was given up: the signal reached it.
    await expect.poll(waiting).toBe(0);
    // The line is written once the host has seen the cancellation, which travels on its own.
    await expect
      .poll(() => readFileSync(join(directory, 'audit.jsonl'), 'utf8'), { timeout: 30_000 })
      .toMatch(/"tool":"slow_get_current_weather"[^\n]*"outcome":"cancelled"/);
  });

  it("stops the tool's work at the host's time limit", async () => {
    const before = silentRequests.length;
    const result = await client.callTool('limited_get_current_weather', freshPlace());
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(
      /limited_get_current_weather did not finish within 300 ms, the limit for this tool; it was cancelled/,
    );
    // The limit may end the call before its request left, on a busy machine; never more than the one request.
    expect(silentRequests.length - before).toBeLessThanOrEqual(1);
    await expect.poll(waiting).toBe(0);
  });
});

describe('a server mounted in process', () => {
  function contextOf(signal: AbortSignal): CallContext {
    return {
      signal,
      protocolVersion: '2025-11-25',
      client: { info: { name: 'direct', version: '1' }, capabilities: {} },
      auth: undefined,
      progress: () => {},
      log: () => {},
      elicit: () => Promise.reject(new Error('not asked in this test')),
      confirm: () => Promise.reject(new Error('not asked in this test')),
      sample: () => Promise.reject(new Error('not asked in this test')),
      roots: () => Promise.reject(new Error('not asked in this test')),
      closeStream: () => {},
      continueAsTask: () => Promise.resolve(false),
    };
  }

  it('refuses a tool it does not have as it would answer a tools/call for it', async () => {
    const files = host.upstreams.find((upstream) => upstream.entry.name === 'files');
    const error = await files
      ?.callInProcess('no_such_tool', {}, contextOf(new AbortController().signal), new AbortController().signal)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamRpcError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool: "no_such_tool"/) });
  });

  it('ends a call in flight when the server is mounted again on reload, and the tool stops', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-legacy', transport: 'memory' });
    try {
      const before = silentRequests.length;
      const pending = client.callTool('slow_get_current_weather', freshPlace());
      await expect.poll(() => silentRequests.length).toBe(before + 1);
      const changed = configOf(`${silentUrl}/`);
      const summary = await host.reload(parseHostConfig(JSON.stringify(changed), join(directory, 'toolshed.json')));
      expect(summary.restarted).toEqual(['slow']);
      const result = await pending;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(
        /^slow stopped before it answered get_current_weather: it was stopped or mounted again/,
      );
      await expect.poll(waiting).toBe(0);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
