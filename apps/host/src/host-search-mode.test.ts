import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countToolListTokens } from '../../../scripts/tool-tokens.ts';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { everythingServer } from './__fixtures__/host-harness.ts';
import { runSelftest } from './cli/selftest-command.ts';
import { parseHostConfig } from './config/load-config.ts';
import { createHost, type Host } from './create-host.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

type FoundTool = { name: string; server: string; inputSchema: Record<string, unknown>; annotations?: object };

let directory: string;
let workspace: string;

function searchConfig(extra: Record<string, unknown> = {}) {
  return parseHostConfig(
    JSON.stringify({
      toolshed: { toolList: 'search', audit: { path: join(directory, 'audit.jsonl') } },
      mcpServers: {
        '@toolshed/server-filesystem': { directories: [workspace] },
        '@toolshed/server-sql': { databases: join(directory, 'shop.db') },
        ...extra,
      },
    }),
    join(directory, 'toolshed.json'),
  );
}

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-search-'));
  workspace = join(directory, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.md'), 'Some notes.\n');
  const db = new Database(join(directory, 'shop.db'));
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple');");
  db.close();
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the search tool list', () => {
  let host: Host;

  beforeAll(async () => {
    host = createHost(searchConfig(), { log: () => {} });
    await host.start();
  });

  afterAll(() => host.close());

  it.each(testClientKinds)(
    '%s client: find → call → approval → audit line, with the real tool named',
    async (kind) => {
      const answers: string[] = [];
      const client: TestClient = await connectTestClient(
        { server: host.server },
        {
          client: kind,
          transport: 'memory',
          onElicit: (params) => {
            answers.push(String(params.message));
            return { action: 'accept', content: { confirmed: true } };
          },
        },
      );
      try {
        expect((await client.listTools()).map((tool) => tool.name)).toEqual([
          'call_tool',
          'find_tools',
          'list_servers',
        ]);

        const found = await client.callTool('find_tools', { query: 'write a file' });
        const tools = (found.structuredContent as { tools: FoundTool[] }).tools;
        expect(tools[0]).toMatchObject({
          name: 'filesystem_write_file',
          server: 'filesystem',
          annotations: { destructiveHint: true },
        });
        expect(tools[0]?.inputSchema).toMatchObject({ properties: { path: {}, content: {} } });
        expect(JSON.parse(found.content[0]?.text ?? '')).toEqual(found.structuredContent);

        const target = join(workspace, `from-${kind}.txt`);
        const written = await client.callTool('call_tool', {
          name: 'filesystem_write_file',
          arguments: { path: target, content: 'written through call_tool' },
        });
        expect(written.isError, JSON.stringify(written)).toBeFalsy();
        expect(readFileSync(target, 'utf8')).toBe('written through call_tool');
        expect(answers).toHaveLength(1);
        expect(answers[0]).toMatch(/^Allow filesystem_write_file \(write_file on filesystem\)\?/);

        const line = (await auditLines(join(directory, 'audit.jsonl'))).findLast(
          (entry) => entry.tool === 'filesystem_write_file',
        );
        expect(line).toMatchObject({
          server: 'filesystem',
          tool: 'filesystem_write_file',
          upstream_tool: 'write_file',
          approval: 'approved',
          outcome: 'ok',
        });
        expect(client.protocolProblems()).toEqual([]);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it.each(testClientKinds)(
    '%s client: a declined approval runs nothing and is audited as refused',
    async (kind) => {
      const client = await connectTestClient(
        { server: host.server },
        { client: kind, transport: 'memory', onElicit: () => ({ action: 'decline' }) },
      );
      try {
        const target = join(workspace, `declined-${kind}.txt`);
        const refused = await client.callTool('call_tool', {
          name: 'filesystem_write_file',
          arguments: { path: target, content: 'no' },
        });
        expect(refused.isError).toBe(true);
        expect(refused.content[0]?.text).toMatch(/The user declined filesystem_write_file/);
        expect(existsSync(target)).toBe(false);
        expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
          tool: 'filesystem_write_file',
          approval: 'declined',
          outcome: 'refused',
        });
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it('refuses to run a destructive tool for a client that cannot ask, as a direct call does', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const target = join(workspace, 'unasked.txt');
      const result = await client.callTool('call_tool', {
        name: 'filesystem_write_file',
        arguments: { path: target, content: 'no' },
      });
      expect(result.content[0]?.text).toMatch(/needs a human's approval, and this client cannot ask for it/);
      expect(existsSync(target)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('checks arguments against the real tool’s schema before anything runs, and names unknown tools', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const before = (await auditLines(join(directory, 'audit.jsonl'))).length;
      const wrong = await client.callTool('call_tool', {
        name: 'sql_query',
        arguments: { statement: 'SELECT 1' },
      });
      expect(wrong.isError).toBe(true);
      expect(wrong.content[0]?.text).toMatch(/do not fit sql_query's inputSchema: .*must have required property 'sql'/);
      const unknown = await client.callTool('call_tool', { name: 'sql_drop_everything', arguments: {} });
      expect(unknown.content[0]?.text).toMatch(/There is no tool named sql_drop_everything now/);
      expect(await auditLines(join(directory, 'audit.jsonl'))).toHaveLength(before);

      const rows = await client.callTool('call_tool', {
        name: 'sql_query',
        arguments: { sql: 'SELECT name FROM items' },
      });
      expect(rows.structuredContent).toMatchObject({ rows: [['apple']] });
      expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
        tool: 'sql_query',
        approval: 'not_required',
        outcome: 'ok',
      });
    } finally {
      await client.close();
    }
  });

  it('ranks deterministically, filters by server and says when nothing matches', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-legacy', transport: 'memory' });
    try {
      const names = async (args: Record<string, unknown>) =>
        ((await client.callTool('find_tools', args)).structuredContent as { tools: FoundTool[] }).tools.map(
          (tool) => tool.name,
        );
      const first = await names({ query: 'list directory', limit: 3 });
      expect(first).toHaveLength(3);
      expect(first[0]).toBe('filesystem_list_directory');
      expect(await names({ query: 'list directory', limit: 3 })).toEqual(first);
      expect(await names({ query: 'query sql database' })).toContain('sql_query');
      expect(await names({ query: 'file', server: 'sql' })).toEqual([]);
      const none = await client.callTool('find_tools', { query: 'zebra' });
      expect(none.structuredContent).toEqual({ tools: [], note: 'No tool matched; try other words, or fewer.' });
    } finally {
      await client.close();
    }
  });

  it('lists each server with its state, era and tool count', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v1', transport: 'memory' });
    try {
      const listed = await client.callTool('list_servers', {});
      const shown = host.tools();
      expect(listed.structuredContent).toEqual({
        servers: [
          {
            name: 'filesystem',
            state: 'up',
            era: 'modern',
            tools: shown.filter((row) => row.server === 'filesystem').length,
          },
          { name: 'sql', state: 'up', era: 'modern', tools: shown.filter((row) => row.server === 'sql').length },
        ],
      });
    } finally {
      await client.close();
    }
  });
});

describe('the search tool list’s cost and freshness', () => {
  it('costs at most 800 tokens whatever is mounted, and finds tools that arrive later without a list change', async () => {
    const host = createHost(searchConfig(), { log: () => {} });
    await host.start();
    const client = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const small = countToolListTokens(await client.listTools()).total;
      expect(small).toBeLessThanOrEqual(800);
      await host.reload(
        searchConfig({
          '@toolshed/server-weather': {
            upstreams: { forecastUrl: 'http://127.0.0.1:9/v1/forecast', geocodingUrl: 'http://127.0.0.1:9/v1/search' },
          },
          '@toolshed/server-email': { outboxDirectory: join(directory, 'outbox') },
          '@toolshed/server-image': { directories: [workspace] },
          everything: everythingServer(),
        }),
      );
      expect(host.tools().length).toBeGreaterThan(40);
      const listed = await client.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(['call_tool', 'find_tools', 'list_servers']);
      expect(countToolListTokens(listed).total).toBe(small);
      const found = await client.callTool('find_tools', { query: 'echo message', server: 'everything' });
      expect((found.structuredContent as { tools: FoundTool[] }).tools[0]?.name).toBe('everything_echo');
      const echoed = await client.callTool('call_tool', { name: 'everything_echo', arguments: { message: 'hi' } });
      expect(echoed.content[0]?.text).toBe('Echo: hi');
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
      await host.close();
    }
  }, 60_000);

  it('switches between the full and the search list on reload', async () => {
    const full = parseHostConfig(
      JSON.stringify({ mcpServers: { '@toolshed/server-sql': { databases: join(directory, 'shop.db') } } }),
      join(directory, 'toolshed.json'),
    );
    const host = createHost(
      { ...full, options: { ...full.options, audit: { ...full.options.audit, enabled: false } } },
      { log: () => {} },
    );
    await host.start();
    const client = await connectTestClient({ server: host.server }, { client: 'v2-legacy', transport: 'memory' });
    try {
      const fullNames = (await client.listTools()).map((tool) => tool.name);
      expect(fullNames).toContain('sql_query');
      await host.reload({
        ...full,
        options: { ...full.options, toolList: 'search', audit: { ...full.options.audit, enabled: false } },
      });
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['call_tool', 'find_tools', 'list_servers']);
      await host.reload({ ...full, options: { ...full.options, audit: { ...full.options.audit, enabled: false } } });
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(fullNames);
    } finally {
      await client.close();
      await host.close();
    }
  }, 60_000);

  it('lets selftest call each safe tool through call_tool', async () => {
    const host = createHost(searchConfig(), { log: () => {} });
    await host.start();
    const report = await runSelftest(host);
    expect(report.text).toMatch(/filesystem_list_allowed_directories: ok/);
    expect(report.passed, report.text).toBe(true);
  }, 60_000);

  it.each(['v1', 'v2-modern'] as const)(
    '%s client over Streamable HTTP to the bin: find → call → approval → audit line',
    async (kind) => {
      const config = join(directory, `search-${kind}.json`);
      const audit = join(directory, `audit-${kind}.jsonl`);
      writeFileSync(
        config,
        JSON.stringify({
          toolshed: { toolList: 'search', audit: { path: audit } },
          mcpServers: { '@toolshed/server-filesystem': { directories: [workspace] } },
        }),
      );
      const asked: string[] = [];
      const client = await connectTestClient(
        { bin: [bin, 'serve', '--config', config], env: { ...process.env, XDG_STATE_HOME: join(directory, 'state') } },
        {
          client: kind,
          transport: 'http',
          onElicit: (params) => {
            asked.push(String(params.message));
            return { action: 'accept', content: { confirmed: true } };
          },
        },
      );
      try {
        const found = await client.callTool('find_tools', { query: 'write file', limit: 1 });
        expect((found.structuredContent as { tools: FoundTool[] }).tools.map((tool) => tool.name)).toEqual([
          'filesystem_write_file',
        ]);
        const target = join(workspace, `over-http-${kind}.txt`);
        const written = await client.callTool('call_tool', {
          name: 'filesystem_write_file',
          arguments: { path: target, content: 'over HTTP' },
        });
        expect(written.isError, JSON.stringify(written)).toBeFalsy();
        expect(readFileSync(target, 'utf8')).toBe('over HTTP');
        expect(asked).toHaveLength(1);
        expect(client.protocolProblems()).toEqual([]);
      } finally {
        await client.close();
      }
      const lines = readFileSync(audit, 'utf8').trim().split('\n');
      expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({
        tool: 'filesystem_write_file',
        upstream_tool: 'write_file',
        approval: 'approved',
        outcome: 'ok',
      });
    },
    120_000,
  );
});
