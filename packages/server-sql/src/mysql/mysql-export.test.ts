import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type mysql from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountActivity,
  type MariadbServer,
  mariadbService,
  startMariadbServer,
} from '../__fixtures__/mariadb-server.ts';
import { createSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';

/**
 * export_query on MariaDB: rows streamed from the server into the file,
 * values as query gives them, and a cap, the time limit or cancellation
 * ending the export with no file and nothing left running.
 */

// MariaDB's sequence engine makes rows as they are read: a result without end that streams from the first row.
const endless = 'SELECT seq, MD5(seq) AS digest FROM seq_1_to_1000000000000';

let mariadb: MariadbServer;
let root: mysql.Connection;
let exportDirectory: string;
const closing: (() => Promise<void>)[] = [];

async function serve(limits: SqlServerOptions['limits'] = {}): Promise<TestClient> {
  const server = createSqlServer({ databases: { shop: mariadb.url('reader') }, exportDirectory, limits });
  const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  closing.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

async function exported(client: TestClient, args: Record<string, unknown>) {
  const result = await client.callTool('export_query', args);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent as { row_count: number; bytes: number; first_rows: unknown[][] };
}

const file = (name: string) => readFileSync(join(exportDirectory, name), 'utf8');

// The server finishes its bookkeeping of a statement (the reset's reply on the wire) just after the client hears it.
const expectNoActivity = () =>
  vi.waitFor(async () => expect(await accountActivity(mariadb, root)).toEqual([]), { timeout: 10_000 });

describe.runIf(serviceGate(mariadbService, it))('export_query on MariaDB', () => {
  beforeAll(async () => {
    mariadb = await startMariadbServer();
    root = await mariadb.rootConnection();
    await root.query(`CREATE TABLE shop.kinds (id INT PRIMARY KEY, big BIGINT UNSIGNED, amount DECIMAL(30, 9),
      at TIMESTAMP(6) NULL, wall DATETIME NULL, raw VARBINARY(10), doc JSON, tags SET('x', 'y'), note TEXT)`);
    await root.query(`INSERT INTO shop.kinds VALUES
      (1, 18446744073709551615, 12345678901234567890.123456789, '2024-05-01 10:00:00.123456', '2024-05-01 10:00:00',
       x'010203', '{"a": [1, 2]}', 'x,y', CONCAT('line one', CHAR(10), 'line "two", three')),
      (2, 42, 1.5, NULL, NULL, NULL, NULL, '', ''),
      (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`);
    exportDirectory = mkdtempSync(join(tmpdir(), 'toolshed-sql-mariadb-exports-'));
  }, 120_000);

  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    for (const name of readdirSync(exportDirectory)) rmSync(join(exportDirectory, name));
  });

  afterAll(async () => {
    await root?.end();
    await mariadb?.stop();
    rmSync(exportDirectory, { recursive: true, force: true });
  });

  it('streams a whole table into CSV, past the caps of query', async () => {
    const client = await serve({ maxRows: 10 });
    const result = await exported(client, { sql: 'SELECT n FROM numbers ORDER BY n', format: 'csv', file: 'n.csv' });
    expect(result.row_count).toBe(1000);
    const lines = file('n.csv').split('\r\n');
    expect(lines.slice(0, 3)).toEqual(['n', '1', '2']);
    expect(lines.at(-2)).toBe('1000');
    expect(readdirSync(exportDirectory)).toEqual(['n.csv']);
    await expectNoActivity();
  });

  it('writes JSONL values exactly as query returns them, BLOBs whole', async () => {
    const client = await serve();
    const sql = 'SELECT * FROM kinds WHERE id <= ? ORDER BY id';
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
      big: '18446744073709551615',
      amount: '12345678901234567890.123456789',
      at: '2024-05-01T10:00:00.123456+00:00',
      wall: '2024-05-01T10:00:00',
      raw: { type: 'blob', bytes: 3, base64: 'AQID' },
      doc: { a: [1, 2] },
      tags: ['x', 'y'],
    });
  });

  it('writes CSV fields per RFC 4180 from MariaDB values', async () => {
    const client = await serve();
    await exported(client, { sql: 'SELECT id, tags, note, doc FROM kinds ORDER BY id', format: 'csv', file: 'k.csv' });
    expect(file('k.csv')).toBe(
      'id,tags,note,doc\r\n' +
        '1,"[""x"",""y""]","line one\nline ""two"", three","{""a"":[1,2]}"\r\n' +
        '2,[],"",\r\n' +
        '3,,,\r\n',
    );
  });

  it('stops at its row cap with no file, and the statement is stopped on the server', async () => {
    const client = await serve({ maxExportRows: 2000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'csv', file: 'capped.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/more than 2000 rows, the export's row cap/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    await expectNoActivity();
  });

  it('stops at its byte cap with no file, and the statement is stopped on the server', async () => {
    const client = await serve({ maxExportBytes: 100_000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'jsonl', file: 'big.jsonl' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/larger than 100000 bytes, the export's byte cap \(--max-export-bytes\)/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    await expectNoActivity();
  });

  it('stops at its time limit while rows stream, with no file and nothing left running', async () => {
    const client = await serve({ exportTimeoutMs: 2000 });
    const result = await client.callTool('export_query', { sql: endless, format: 'csv', file: 'slow.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/export was stopped after 2000 ms, the export time limit/);
    expect(readdirSync(exportDirectory)).toEqual([]);
    await expectNoActivity();
    // The session went back to the pool with the query time limit, not the export's.
    const limit = await client.callTool('query', { sql: 'SELECT @@max_statement_time AS seconds' });
    expect(limit.structuredContent).toMatchObject({ rows: [[10]] });
  }, 60_000);

  it('cancelled, stops its statement on the server and writes no file', async () => {
    const client = await serve({ exportTimeoutMs: 600_000 });
    const controller = new AbortController();
    const cancelled = client.callTool(
      'export_query',
      { sql: endless, format: 'csv', file: 'c.csv' },
      { signal: controller.signal },
    );
    await vi.waitFor(async () => expect(await accountActivity(mariadb, root)).not.toEqual([]), { timeout: 30_000 });
    controller.abort('changed my mind');
    await expect(cancelled).rejects.toThrow();
    await expectNoActivity();
    await vi.waitFor(() => expect(readdirSync(exportDirectory)).toEqual([]), { timeout: 30_000 });
  }, 60_000);

  it('refuses what the gate refuses, and writes no file', async () => {
    const client = await serve();
    for (const sql of ['DELETE FROM orders', "SELECT * FROM orders INTO OUTFILE '/tmp/x'", 'SELECT GET_LOCK("x", 1)']) {
      const result = await client.callTool('export_query', { sql, format: 'csv', file: 'refused.csv' });
      expect(result.isError).toBe(true);
    }
    expect(readdirSync(exportDirectory)).toEqual([]);
  });
});
