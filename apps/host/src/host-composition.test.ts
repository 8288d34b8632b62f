import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, type HostHarness, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { type SdkHttpServer, startSdkHttpServer } from './__fixtures__/sdk-http-server.ts';
import { samplePng } from './defaults/sample-image.ts';

describe('a host composing our five servers in process, a foreign stdio server and a foreign HTTP server', () => {
  let h: HostHarness;
  let remote: SdkHttpServer;

  beforeAll(async () => {
    remote = await startSdkHttpServer();
    h = await startHostHarness((directory) => {
      const db = new Database(join(directory, 'shop.db'));
      db.exec(
        "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple'), ('pear');",
      );
      db.close();
      writeFileSync(join(directory, 'sea.png'), samplePng());
      return {
        mcpServers: {
          '@toolshed/server-sql': { databases: join(directory, 'shop.db') },
          '@toolshed/server-filesystem': { directories: [directory] },
          // Nothing leaves the machine: the upstreams point at a closed local port.
          '@toolshed/server-weather': {
            upstreams: { forecastUrl: 'http://127.0.0.1:9/v1/forecast', geocodingUrl: 'http://127.0.0.1:9/v1/search' },
          },
          '@toolshed/server-email': { outboxDirectory: join(directory, 'outbox'), approval: { skip: ['send_email'] } },
          '@toolshed/server-image': { directories: [directory] },
          everything: {
            ...everythingServer(),
            tools: { allow: ['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-elicitation-request'] },
          },
          remote: { url: remote.url },
          limited: {
            url: remote.url,
            prefix: 'lim',
            toolTimeoutMs: 300,
            rateLimit: { perMinute: 3 },
            tools: { allow: ['slow_count', 'add'] },
          },
        },
      };
    });
  });

  afterAll(async () => {
    expect(h.specViolations()).toEqual([]);
    await h.close();
    await remote.close();
  });

  it('lists every server’s tools under its prefix, filtered as configured', async () => {
    const { tools } = await h.client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'sql_query',
      'filesystem_read_text_file',
      'weather_get_forecast',
      'email_send_email',
      'image_process_image',
      'everything_echo',
      'everything_trigger-long-running-operation',
      'remote_add',
      'remote_delete_everything',
      'lim_slow_count',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => name.startsWith('everything_'))).toHaveLength(4);
    expect(names.filter((name) => name.startsWith('lim_')).sort()).toEqual(['lim_add', 'lim_slow_count']);
    const query = tools.find((tool) => tool.name === 'sql_query');
    expect(query?.annotations?.readOnlyHint).toBe(true);
    expect(query?.outputSchema).toBeDefined();
  });

  it('calls each kind of upstream and returns its result as it came', async () => {
    const rows = await h.call('sql_query', { sql: 'SELECT name FROM items ORDER BY id' });
    expect(rows.structuredContent).toMatchObject({ rows: [['apple'], ['pear']] });
    expect(textOf(await h.call('everything_echo', { message: 'hello' }))).toBe('Echo: hello');
    expect((await h.call('remote_add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    const image = await h.call('image_process_image', { path: 'sea.png', operations: [{ op: 'thumbnail', size: 32 }] });
    expect(image.content.map((block) => block.type)).toEqual(['text', 'image']);
  });

  it('passes progress through, re-tagged for the caller, from every kind of upstream', async () => {
    const seen = async (name: string, args: Record<string, unknown>) => {
      const progress: number[] = [];
      await h.call(name, args, { onprogress: (update) => progress.push(update.progress) });
      return progress;
    };
    expect(
      await seen('image_process_image', {
        path: 'sea.png',
        operations: [
          { op: 'resize', width: 50 },
          { op: 'adjust', grayscale: true },
        ],
      }),
    ).toEqual([1, 2, 3]);
    expect(await seen('everything_trigger-long-running-operation', { duration: 0.3, steps: 3 })).toEqual([1, 2, 3]);
    expect(await seen('remote_slow_count', { to: 3, stepMs: 10 })).toEqual([1, 2, 3]);
  });

  it('passes cancellation through to an HTTP upstream', async () => {
    const controller = new AbortController();
    const pending = h.call('remote_slow_count', { to: 100, stepMs: 20 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(/abort/i);
    await expect.poll(() => remote.cancelled, { timeout: 3000 }).toBe(1);
  });

  it('passes cancellation through to a stdio upstream, and the server goes on', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = h.call(
      'everything_trigger-long-running-operation',
      { duration: 10, steps: 5 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 150);
    await expect(pending).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(textOf(await h.call('everything_echo', { message: 'still here' }))).toBe('Echo: still here');
  });

  it('forwards an upstream’s elicitation to the caller’s client, from a child and from an in-process server', async () => {
    h.asked.length = 0;
    const result = await h.call('everything_trigger-elicitation-request', {});
    expect(h.asked).toEqual(['Please provide inputs for the following fields:']);
    expect(result.content.map((block) => block.text).join('\n')).toMatch(/Name: Ada Lovelace/);
    h.asked.length = 0;
    const sent = await h.call('email_send_email', {
      to: 'outbox@toolshed.invalid',
      subject: 'Through the host',
      text: 'Hello',
    });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(h.asked).toHaveLength(1);
    expect(h.asked[0]).toMatch(/Subject: Through the host/);
    expect(readdirSync(join(h.directory, 'outbox'))).toHaveLength(1);
  });

  it('asks a human before a destructive tool runs, and respects the answer', async () => {
    h.asked.length = 0;
    h.answer = 'accept';
    expect(textOf(await h.call('remote_delete_everything', {}))).toBe('deleted');
    expect(h.asked[0]).toMatch(
      /Allow remote_delete_everything \(delete_everything on remote\)\? It may change or delete things/,
    );
    expect(remote.deleted).toBe(1);
    for (const answer of ['decline', 'cancel'] as const) {
      h.answer = answer;
      const refused = await h.call('remote_delete_everything', { confirm: true, approved: 'yes' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(answer === 'decline' ? /The user declined/ : /The user dismissed/);
    }
    h.answer = 'accept';
    expect(remote.deleted).toBe(1);
  });

  it('refuses a destructive tool when the client cannot ask', async () => {
    const client = new Client({ name: 'no-elicitation', version: '1' });
    await connectInMemory(h.host.server, client);
    const result = (await client.callTool({ name: 'remote_delete_everything', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/needs a human's approval, and this client cannot ask for it/);
    expect(remote.deleted).toBe(1);
    const readOnly = (await client.callTool({ name: 'remote_add', arguments: { a: 1, b: 1 } })) as {
      isError?: boolean;
    };
    expect(readOnly.isError).toBeFalsy();
    await client.close();
  });

  it('stops a call at the tool’s timeout and holds to its rate limit', async () => {
    const slow = await h.call('lim_slow_count', { to: 50, stepMs: 20 });
    expect(textOf(slow)).toMatch(
      /lim_slow_count did not finish within 300 ms, the limit for this tool; it was cancelled/,
    );
    expect((await h.call('lim_add', { a: 1, b: 2 })).isError).toBeFalsy();
    expect((await h.call('lim_add', { a: 1, b: 2 })).isError).toBeFalsy();
    const limited = await h.call('lim_add', { a: 1, b: 2 });
    expect(textOf(limited)).toMatch(/limited allows 3 calls per minute; try again in \d+ s/);
  });

  it('writes one audit line per call, with the decision and outcome, and never the arguments', async () => {
    await h.call('sql_query', { sql: "SELECT 'marker-7f3a' AS secret_looking_value" });
    // Lines are written once the call's turn of the event loop is over.
    await new Promise((resolve) => setImmediate(resolve));
    const lines = readFileSync(join(h.directory, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(10);
    const text = readFileSync(join(h.directory, 'audit.jsonl'), 'utf8');
    expect(text).not.toContain('marker-7f3a');
    expect(lines).toContainEqual(
      expect.objectContaining({
        server: 'remote',
        tool: 'remote_delete_everything',
        upstream_tool: 'delete_everything',
        approval: 'declined',
        outcome: 'refused',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ tool: 'remote_delete_everything', approval: 'approved', outcome: 'ok' }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ tool: 'lim_slow_count', outcome: 'timeout' }));
    expect(lines).toContainEqual(expect.objectContaining({ tool: 'lim_add', outcome: 'rate_limited' }));
    expect(lines).toContainEqual(expect.objectContaining({ tool: 'remote_slow_count', outcome: 'cancelled' }));
    const last = lines.at(-1);
    expect(last).toMatchObject({
      caller: 'host-test/1',
      server: 'sql',
      tool: 'sql_query',
      approval: 'not_required',
      outcome: 'ok',
    });
    expect(last?.arguments_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof last?.duration_ms).toBe('number');
  });

  it('tells clients when an upstream’s tool list changes', async () => {
    let changed = 0;
    h.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    const upstream = h.host.upstreams.find((candidate) => candidate.entry.name === 'remote');
    upstream?.session?.onToolsChanged?.();
    await expect.poll(() => changed, { timeout: 3000 }).toBeGreaterThan(0);
  });
});
