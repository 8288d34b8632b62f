import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitTask, connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresServer,
  postgresService,
  roleNames,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import { createSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';

/**
 * export_query on PostgreSQL: rows streamed a batch at a time from a
 * portal into the file, values as query gives them, and every way an
 * export ends early — a cap, its time limit, cancellation, tasks/cancel —
 * leaving no file and nothing running on the server.
 */

// pg_sleep is refused by the gate; a cross join of three series never ends either, and returns no row meanwhile.
const forever =
  'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b, generate_series(1, 100000) c';
// Rows as fast as the server makes them, without end: a set-returning function in the select list streams its rows
// (in FROM it would first make them all).
const endless = 'SELECT n, md5(n::text) AS digest FROM (SELECT generate_series(1, 1000000000000) AS n) AS numbers';

let postgres: PostgresServer;
let admin: pg.Client;
let exportDirectory: string;
const closing: (() => Promise<void>)[] = [];

/** Our sessions running one of these statements now, seen from outside. */
async function running(sql: string): Promise<number[]> {
  const { rows } = await admin.query(
    "SELECT pid FROM pg_stat_activity WHERE query = $1 AND state <> 'idle' AND pid <> pg_backend_pid()",
    [sql],
  );
  return rows.map((row: { pid: number }) => row.pid);
}

async function serve(
  limits: SqlServerOptions['limits'] = {},
  connect: { tasks?: boolean; kind?: 'v1' | 'v2-modern' } = {},
): Promise<TestClient> {
  const server = createSqlServer({ databases: { app: postgres.url('reader') }, exportDirectory, limits });
  const client = await connectTestClient(
    { server },
    { client: connect.kind ?? 'v2-modern', transport: 'memory', tasks: connect.tasks ?? false },
  );
  closing.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

async function exported(client: TestClient, args: Record<string, unknown>) {
  const result = await client.callTool('export_query', args);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent as { row_count: number; bytes: number; first_rows: unknown[][]; columns: unknown[] };
}

const file = (name: string) => readFileSync(join(exportDirectory, name), 'utf8');

describe.runIf(serviceGate(postgresService, it))('export_query on PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer();
    admin = await postgres.admin();
    await admin.query(`
      CREATE TABLE kinds (id integer PRIMARY KEY, big bigint, amount numeric, at timestamptz, day date, raw bytea,
        doc jsonb, tags text[], flag boolean, note text);
      INSERT INTO kinds VALUES
        (1, 9007199254740993, 12345678901234567890.123456789, '2024-05-01 10:00:00.123456+02', '2024-05-01',
         '\\x010203', '{"a": [1, 2]}', '{x,"y z"}', true, 'line one' || chr(10) || 'line "two", three'),
        (2, 42, 1.5, NULL, NULL, NULL, NULL, '{}', false, ''),
        (3, NULL, NULL, NULL, NULL, NULL, 'null', NULL, NULL, NULL);
      GRANT SELECT ON kinds TO ${roleNames.reader};
    `);
  }, 120_000);

  beforeAll(() => {
    exportDirectory = mkdtempSync(join(tmpdir(), 'toolshed-sql-pg-exports-'));
  });

  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    for (const name of readdirSync(exportDirectory)) rmSync(join(exportDirectory, name));
  });

  afterAll(async () => {
    await admin?.end();
    await postgres?.stop();
    rmSync(exportDirectory, { recursive: true, force: true });
  });

  it('streams a result larger than a batch into CSV', async () => {
    const client = await serve({ maxRows: 10 });
    const result = await exported(client, {
      sql: 'SELECT n, label FROM numbers ORDER BY n',
      format: 'csv',
      file: 'numbers.csv',
    });
    const lines = file('numbers.csv').split('\r\n');
    expect(lines.slice(0, 3)).toEqual(['n,label', '1,row 1', '2,row 2']);
    expect(lines.at(-2)).toBe('10000,row 10000');
    expect(lines).toHaveLength(10_002);
    expect(result).toMatchObject({
      row_count: 10_000,
      columns: [
        { name: 'n', type: 'integer' },
        { name: 'label', type: 'text' },
      ],
    });
    expect(readdirSync(exportDirectory)).toEqual(['numbers.csv']);
  });

  it('writes JSONL values exactly as query returns them, BLOBs whole', async () => {
    const client = await serve();
    const sql = 'SELECT * FROM kinds WHERE id <= $1 ORDER BY id';
    await exported(client, { sql, params: [3], format: 'jsonl', file: 'kinds.jsonl' });
    const queried = (await client.callTool('query', { sql, params: [3] })).structuredContent as {
      columns: { name: string }[];
      rows: unknown[][];
    };
    const asObjects = queried.rows.map((row) =>
      Object.fromEntries(queried.columns.map((column, index) => [column.name, row[index]])),
    );
    const lines = file('kinds.jsonl').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(asObjects);
    expect(asObjects[0]).toMatchObject({
      big: '9007199254740993',
      amount: '12345678901234567890.123456789',
      at: '2024-05-01T08:00:00.123456+00:00',
      raw: { type: 'blob', bytes: 3, base64: 'AQID' },
      doc: { a: [1, 2] },
      tags: ['x', 'y z'],
    });
  });

  it('writes CSV fields per RFC 4180 from PostgreSQL values', async () => {
    const client = await serve();
    await exported(client, {
      sql: 'SELECT id, flag, note, tags, doc FROM kinds ORDER BY id',
      format: 'csv',
      file: 'k.csv',
    });
    expect(file('k.csv')).toBe(
      'id,flag,note,tags,doc\r\n' +
        '1,true,"line one\nline ""two"", three","[""x"",""y z""]","{""a"":[1,2]}"\r\n' +
        '2,false,"",[],\r\n' +
        '3,,,,\r\n',
    );
  });

  it('writes numbers into CSV as PostgreSQL prints them, and other types as query gives them', async () => {
    const client = await serve();
    await exported(client, {
      sql: "SELECT 12.50::numeric AS n, 1e20::float8 AS f, 'NaN'::float8 AS nan, -7::int2 AS i, true AS b, '\\x00ff'::bytea AS raw, timestamptz '2024-05-01 10:00:00+02' AS at, '' AS empty, NULL::text AS nothing",
      format: 'csv',
      file: 'numbers.csv',
    });
    expect(file('numbers.csv')).toBe(
      'n,f,nan,i,b,raw,at,empty,nothing\r\n12.50,1e+20,NaN,-7,true,AP8=,2024-05-01T08:00:00+00:00,"",\r\n',
    );
  });

  it('stops at its row cap with no file, and the statement no longer runs', async () => {
    const client = await serve({ maxExportRows: 12_000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'csv', file: 'capped.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/more than 12000 rows, the export's row cap/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    expect(await running(endless)).toEqual([]);
  });

  it('stops at its byte cap with no file, and the statement no longer runs', async () => {
    const client = await serve({ maxExportBytes: 100_000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'jsonl', file: 'big.jsonl' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/larger than 100000 bytes, the export's byte cap \(--max-export-bytes\)/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    expect(await running(endless)).toEqual([]);
  });

  it('stops at its time limit while rows stream, with no file and nothing left running', async () => {
    const client = await serve({ exportTimeoutMs: 2000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'csv', file: 'slow.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/export was stopped after 2000 ms, the export time limit/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    await expect.poll(() => running(endless), { timeout: 30_000 }).toEqual([]);
  }, 60_000);

  it('cancelled, stops its statement on the server and writes no file', async () => {
    const client = await serve({ exportTimeoutMs: 600_000 });
    const controller = new AbortController();
    const cancelled = client.callTool(
      'export_query',
      { sql: forever, format: 'csv', file: 'c.csv' },
      { signal: controller.signal },
    );
    await expect.poll(() => running(forever), { timeout: 30_000 }).toHaveLength(1);
    controller.abort('changed my mind');
    await expect(cancelled).rejects.toThrow();
    await expect.poll(() => running(forever), { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => readdirSync(exportDirectory), { timeout: 30_000 }).toEqual([]);
  }, 60_000);

  it('goes on as a task; tasks/cancel stops its statement on the server and leaves no file', async () => {
    const client = await serve({ exportTimeoutMs: 600_000 }, { tasks: true });
    const created = await client.request('tools/call', {
      name: 'export_query',
      arguments: { sql: forever, format: 'csv', file: 't.csv' },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    await expect.poll(() => running(forever), { timeout: 30_000 }).toHaveLength(1);
    await client.request('tasks/cancel', { taskId: created.taskId });
    expect(await awaitTask(client, created.taskId as string)).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => running(forever), { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => readdirSync(exportDirectory), { timeout: 30_000 }).toEqual([]);
    // The pooled connection is clean: a query from the same server answers as ever.
    const quick = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(quick.structuredContent).toMatchObject({ rows: [[1]] });
    expect(client.protocolProblems()).toEqual([]);
  }, 60_000);

  it('refuses what the gate refuses, and writes no file', async () => {
    const client = await serve();
    for (const sql of [
      'DELETE FROM orders',
      "SELECT set_config('statement_timeout', '0', false)",
      'COPY orders TO STDOUT',
    ]) {
      const result = await client.callTool('export_query', { sql, format: 'csv', file: 'refused.csv' });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/Only SELECT-style reads|acts outside the data/);
    }
    expect(readdirSync(exportDirectory)).toEqual([]);
  });
});
