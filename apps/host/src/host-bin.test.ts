import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { recordMessages, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { openStateStore } from '@toolshed/state';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, scriptedServer } from './__fixtures__/host-harness.ts';
import { processesInGroups } from './upstream/process-groups.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;
let config: string;
let env: Record<string, string>;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-bin-'));
  const db = new Database(join(directory, 'shop.db'));
  db.exec(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple'), ('pear');",
  );
  db.close();
  config = join(directory, 'toolshed.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        '@toolshed/server-sql': { databases: join(directory, 'shop.db') },
        everything: { ...everythingServer(), tools: { allow: ['echo', 'get-sum'] } },
      },
    }),
  );
  env = { ...(process.env as Record<string, string>), XDG_STATE_HOME: join(directory, 'state') };
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], { encoding: 'utf8', env }, (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : (child.exitCode ?? null), stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** A process's children, with their process groups, from /proc. */
function childrenOf(pid: number): { pid: number; group: number }[] {
  const children: { pid: number; group: number }[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, parent = '', group = ''] = stat
        .slice(stat.lastIndexOf(')') + 1)
        .trim()
        .split(' ');
      if (Number(parent) === pid) children.push({ pid: Number(entry), group: Number(group) });
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('toolshed bin', () => {
  it('explains itself', async () => {
    const help = await run(['--help']);
    expect(help.stdout).toMatch(/Usage: toolshed \[serve\|tools\|call\|selftest\]/);
    const unknown = await run(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it.each([
    [
      { mcpServers: { a: { command: 'x', args: 'oops' } } },
      /bad\.json at mcpServers\.a\.args: Invalid input: expected array/,
    ],
    [
      { servers: { a: { type: 'sse', url: 'http://x' } } },
      /at servers\.a\.type: the legacy SSE transport is not supported/,
    ],
    ['{ not json', /not valid JSON/],
    [
      { servers: { a: { command: 'x', env: { TOKEN: `\${input:${'api-token'}}` } } } },
      /at servers\.a\.env\.TOKEN: \$\{input:api-token\} asks the user for "api-token"/,
    ],
  ])('does not start on a bad file, and says where: %j', async (document, message) => {
    const bad = join(directory, 'bad.json');
    writeFileSync(bad, typeof document === 'string' ? document : JSON.stringify(document));
    const result = await run(['serve', '--config', bad]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [
      'a PostgreSQL nobody listens on',
      'postgres://toolshed:hunter2-secret@127.0.0.1:1/toolshed',
      /cannot be used: .*ECONNREFUSED/,
    ],
    [
      'a URL of another kind',
      'mysql://toolshed@127.0.0.1/toolshed',
      /the state store mysql:\/\/toolshed@127\.0\.0\.1\/toolshed is neither a postgres:\/\/ URL nor a SQLite file/,
    ],
  ])(
    'stops at start with exit 2 and one line, without the password, on a state store that cannot be used: %s',
    async (_what, url, message) => {
      const good = join(directory, 'good-for-state.json');
      writeFileSync(good, JSON.stringify({ mcpServers: { '@toolshed/server-weather': {} } }));
      const result = await run(['tools', '--config', good, '--state', url]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it('refuses a 10 MB config nested five million levels deep with one line, not a stack trace', async () => {
    const deep = join(directory, 'deep.json');
    const levels = 5_000_000;
    writeFileSync(deep, `{"mcpServers": {"a": {"command": "x", "args": ${'['.repeat(levels)}${']'.repeat(levels)}}}}`);
    const result = await run(['serve', '--config', deep]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/deep\.json: nested deeper than 64 levels at line 1 column \d+/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('lists tools by server, with annotations', async () => {
    const result = await run(['tools', '--config', config]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^sql \(@toolshed\/server-sql\) — up, (legacy|modern) era \d{4}-\d{2}-\d{2}$/m);
    expect(result.stdout).toMatch(/^ {2}sql_query +read-only, idempotent$/m);
    expect(result.stdout).toMatch(/^everything \(stdio: .*\) — up, legacy era 2025-\d{2}-\d{2}$/m);
    expect(result.stdout).toMatch(/^ {2}everything_echo/m);
  });

  it("serves tools/list over stdio without loading Node's bundled undici, which only HTTP needs", async () => {
    const sqlOnly = join(directory, 'sql-only.json');
    writeFileSync(
      sqlOnly,
      JSON.stringify({ mcpServers: { '@toolshed/server-sql': { databases: join(directory, 'shop.db') } } }),
    );
    // Reports at exit whether Node loaded undici: an ES module import of node:http does, through its export facade.
    const probe =
      'data:text/javascript,process.on("exit",()=>process.stderr.write("undici loaded: "+process.moduleLoadList.includes("NativeModule internal/deps/undici/undici")+"\\n"))';
    const input = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    ].join('\n');
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', probe, bin, 'serve', '--config', sqlOnly],
        { encoding: 'utf8', env },
        (_error, out, err) => resolve({ stdout: out, stderr: err }),
      );
      child.stdout?.on('data', (chunk: string) => {
        if (chunk.includes('"id":2')) child.stdin?.end();
      });
      child.stdin?.write(`${input}\n`);
    });
    expect(stdout).toContain('sql_query');
    expect(stderr).toContain('undici loaded: false');
  });

  it('exits 1 from tools when no configured server started, naming each and why', async () => {
    const broken = join(directory, 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify({
        toolshed: { maxRestarts: 0 },
        mcpServers: {
          missing: { command: join(directory, 'no-such-server') },
          gone: { url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    const result = await run(['tools', '--config', broken]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/toolshed tools: no server started: missing \(.*ENOENT.*\); gone \(.+\)/);
  });

  it('calls one tool, prints the result, and sets the exit code', async () => {
    const ok = await run(['call', 'sql_query', '{"sql": "SELECT name FROM items ORDER BY id"}', '--config', config]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ rows: [['apple'], ['pear']] });
    const failed = await run(['call', 'sql_query', '{"sql": "DELETE FROM items"}', '--config', config]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^error: /);
    const unknown = await run(['call', 'nope', '{}', '--config', config]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown tool: "nope"/);
    const badJson = await run(['call', 'sql_query', '{sql}', '--config', config]);
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/the arguments are not JSON/);
    // Four starts of the bin, each starting its servers.
  }, 120_000);

  it('runs a selftest that starts, calls, stops and finds no process left', async () => {
    const result = await run(['selftest', '--config', config]);
    // Its four tools and query_page, which only its view calls: the host takes part in views, so it sees that one too.
    expect(result.stdout).toMatch(/✓ sql: up, 5 tools/);
    expect(result.stdout).toMatch(/✓ everything: up, 2 tools, legacy era 2025-/);
    expect(result.stdout).toMatch(/sql_list_tables: ok/);
    expect(result.stdout).toMatch(/processes: 1 child process group started, 0 processes left/);
    expect(result.stdout).toMatch(/selftest passed/);
    expect(result.status).toBe(0);
  });

  it('serves stdio, and when its client goes every process of its tree goes with it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--config', config],
      env,
      stderr: 'pipe',
    });
    const recording = recordMessages(transport);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(recording.transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('everything_get-sum');
    const sum = await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toMatch(/5/);
    const hostPid = transport.pid ?? 0;
    const children = childrenOf(hostPid);
    // The stdio server leads its own group; the SQL server's query process is the host's own child.
    const groups = children
      .map((child) => child.group)
      .filter(
        (group) => group !== hostPid && group !== process.pid && group === children.find((c) => c.pid === group)?.pid,
      );
    expect(groups).toHaveLength(1);
    expect(processesInGroups(groups).length).toBeGreaterThan(0);
    expect(recording.specViolations()).toEqual([]);
    await client.close();
    await expect.poll(() => processesInGroups(groups), { timeout: 5000 }).toEqual([]);
    await expect.poll(() => children.filter((child) => alive(child.pid)), { timeout: 5000 }).toEqual([]);
    expect(alive(hostPid)).toBe(false);
    const store = await openStateStore({ location: join(directory, 'state', 'toolshed', 'state.db') });
    try {
      expect((await store.audit.query({ tool: 'everything_get-sum', outcome: 'ok', limit: 1 })).matching).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('reloads when its config file changes and on SIGHUP, and clients see the new tools', async () => {
    const live = join(directory, 'live.json');
    const write = (tools: Record<string, string>) =>
      writeFileSync(live, JSON.stringify({ mcpServers: { scripted: scriptedServer({ label: 's', tools }) } }));
    write({ first: 'echo' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--config', live],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['scripted_first']);
      write({ first: 'echo', second: 'echo' });
      await expect
        .poll(async () => (await client.listTools()).tools.map((tool) => tool.name).sort(), { timeout: 10_000 })
        .toEqual(['scripted_first', 'scripted_second']);
      expect(stderr).toMatch(/reloaded on a change to the config file: restarted scripted; 0 unchanged/);
      process.kill(transport.pid ?? 0, 'SIGHUP');
      await expect
        .poll(() => stderr, { timeout: 10_000 })
        .toMatch(/reloaded on SIGHUP: nothing changed \(1 unchanged\)/);
      writeFileSync(live, '{ "mcpServers": ');
      await expect
        .poll(() => stderr, { timeout: 10_000 })
        .toMatch(/not reloaded on a change to the config file, still serving the previous config: .*not valid JSON/);
      expect((await client.callTool({ name: 'scripted_second', arguments: {} })).content).toEqual([
        { type: 'text', text: 's:second' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('serves Streamable HTTP to the v2 SDK client and stops its children on SIGTERM', async () => {
    const server = await spawnHttpServer([bin, 'serve', '--config', config, '--http', '127.0.0.1:0'], { env });
    try {
      const client = new ClientV2({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const result = await client.callTool({
        name: 'sql_query',
        arguments: { sql: 'SELECT count(*) AS n FROM items' },
      });
      expect(result.structuredContent).toMatchObject({ rows: [[2]] });
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
