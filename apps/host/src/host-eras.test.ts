import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTestCases, connectTestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from './__fixtures__/host-harness.ts';
import { loadHostConfig } from './config/load-config.ts';
import { createHost } from './create-host.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;
let config: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-eras-'));
  const db = new Database(join(directory, 'shop.db'));
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple');");
  db.close();
  config = join(directory, 'toolshed.json');
  // One of ours in process (a modern upstream) and a foreign child that speaks only the 2025 era.
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        '@toolshed/server-sql': { databases: join(directory, 'shop.db') },
        everything: { ...everythingServer(), tools: { allow: ['echo'] } },
      },
    }),
  );
  env = { ...process.env, XDG_STATE_HOME: join(directory, 'state') };
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function expectHostWorks(connection: Awaited<ReturnType<typeof connectTestClient>>) {
  try {
    const names = (await connection.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['sql_query', 'everything_echo']));
    const rows = await connection.callTool('sql_query', { sql: 'SELECT name FROM items' });
    expect(rows.structuredContent).toMatchObject({ rows: [['apple']] });
    expect((await connection.callTool('everything_echo', { message: 'hi' })).content[0]?.text).toMatch(/hi/);
    const bad = await connection.callTool('sql_query', {});
    expect(bad.isError).toBe(true);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed in both protocol eras, to a modern and a legacy upstream', () => {
  it.each(binTestCases)(
    '%s client over %s to the bin',
    async (client, transport) =>
      expectHostWorks(await connectTestClient({ bin: [bin, 'serve', '--config', config], env }, { client, transport })),
    120_000,
  );

  it.each(testClientKinds)(
    '%s client in memory to createHost',
    async (client) => {
      const host = createHost(loadHostConfig(config, env), { env, log: () => {} });
      await host.start();
      try {
        await expectHostWorks(await connectTestClient({ server: host.server }, { client, transport: 'memory' }));
      } finally {
        await host.close();
      }
    },
    120_000,
  );
});
