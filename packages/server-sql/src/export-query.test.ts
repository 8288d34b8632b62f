import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitTask, connectTestClient, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';
import type { SqlServerOptions } from './sql-server-options.ts';

/** export_query on SQLite: what the files hold, the caps, the time limit and cancellation. */

const forever = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let sample: SampleDatabase;
let exportDirectory: string;
const closing: (() => Promise<void>)[] = [];

beforeAll(() => {
  sample = createSampleDatabase();
});

afterAll(() => {
  sample.remove();
});

afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  rmSync(exportDirectory, { recursive: true, force: true });
});

async function serve(
  options: Partial<SqlServerOptions> = {},
  connect: { kind?: (typeof testClientKinds)[number]; tasks?: boolean } = {},
): Promise<TestClient> {
  exportDirectory = mkdtempSync(join(tmpdir(), 'toolshed-sql-exports-'));
  const server = createSqlServer({ databases: sample.path, exportDirectory, ...options });
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
  return result.structuredContent as {
    path: string;
    row_count: number;
    bytes: number;
    first_rows: unknown[][];
    columns: { name: string; type: string | null }[];
  };
}

const file = (name: string) => readFileSync(join(exportDirectory, name), 'utf8');

describe('export_query on SQLite', () => {
  it('writes a whole result as CSV, past the caps of query, and answers what it wrote', async () => {
    const client = await serve({ limits: { maxRows: 10, maxResultBytes: 2000 } });
    const result = await exported(client, {
      sql: 'SELECT * FROM orders ORDER BY id',
      format: 'csv',
      file: 'orders.csv',
    });
    const lines = file('orders.csv').split('\r\n');
    expect(lines[0]).toBe('id,customer_id,total,placed_at,total_cents');
    expect(lines[1]).toBe('1,2,7.5,2026-02-11,750');
    expect(lines).toHaveLength(252);
    expect(lines.at(-1)).toBe('');
    expect(result).toMatchObject({
      database: 'shop',
      file: 'orders.csv',
      path: join(exportDirectory, 'orders.csv'),
      format: 'csv',
      row_count: 250,
      bytes: statSync(join(exportDirectory, 'orders.csv')).size,
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'customer_id', type: 'INTEGER' },
        { name: 'total', type: 'REAL' },
        { name: 'placed_at', type: 'TEXT' },
        { name: 'total_cents', type: 'INTEGER' },
      ],
    });
    expect(result.first_rows).toEqual([
      [1, 2, 7.5, '2026-02-11', 750],
      [2, 3, 15, '2026-03-12', 1500],
      [3, 1, 22.5, '2026-04-13', 2250],
      [4, 2, 30, '2026-05-14', 3000],
      [5, 3, 37.5, '2026-06-15', 3750],
    ]);
    expect(readdirSync(exportDirectory)).toEqual(['orders.csv']);
    expect(client.protocolProblems()).toEqual([]);
  });

  it('quotes CSV fields as RFC 4180 says, and tells NULL from the empty string', async () => {
    const client = await serve();
    await exported(client, {
      sql: `SELECT 'a,b' AS "comma", 'say "hi"' AS "quote", 'two' || char(13, 10) || 'lines' AS "crlf", 'x' || char(10) AS lf, '' AS empty, NULL AS "null", ' padded ' AS "a ""name"", too"`,
      format: 'csv',
      file: 'quoting.csv',
    });
    expect(file('quoting.csv')).toBe(
      'comma,quote,crlf,lf,empty,null,"a ""name"", too"\r\n' +
        '"a,b","say ""hi""","two\r\nlines","x\n","",, padded \r\n',
    );
  });

  it('writes JSONL with the values query returns: exact big integers, infinities, BLOBs whole', async () => {
    const client = await serve();
    const result = await exported(client, {
      sql: 'SELECT * FROM measurements ORDER BY id',
      format: 'jsonl',
      file: 'm.jsonl',
    });
    const rows = file('m.jsonl')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows[0]).toEqual({
      id: 1,
      big: '9007199254740993',
      ratio: 'Infinity',
      payload: { type: 'blob', bytes: 3, base64: 'AQID' },
      note: 'small blob',
    });
    expect(rows[1]).toMatchObject({ big: '-9223372036854775808', ratio: '-Infinity', note: 'large blob' });
    expect(Buffer.from(rows[1].payload.base64, 'base64')).toEqual(Buffer.alloc(10_000, 7));
    expect(rows[2]).toEqual({ id: 3, big: 42, ratio: 0.5, payload: null, note: null });
    // The first row's integer beyond 2^53 made the export start again with exact integers: each row is there once.
    expect(rows).toHaveLength(3);
    expect(result.row_count).toBe(3);
    // The answer shows a BLOB past --max-blob-bytes by its length only, as query does.
    expect(result.first_rows[1]?.[3]).toEqual({ type: 'blob', bytes: 10_000, base64: null });
  });

  it('keeps JSONL keys in column order and gives a repeated name a suffix', async () => {
    const client = await serve();
    await exported(client, {
      sql: 'SELECT 1 AS id, 2 AS id, 3 AS "2", 4 AS id_2',
      format: 'jsonl',
      file: 'keys.jsonl',
    });
    expect(file('keys.jsonl')).toBe('{"id":1,"id_2":2,"2":3,"id_2_2":4}\n');
  });

  it('binds params, and writes the header alone for a result without rows', async () => {
    const client = await serve();
    const some = await exported(client, {
      sql: 'SELECT id FROM orders WHERE customer_id = ? AND id <= ? ORDER BY id',
      params: [1, 9],
      format: 'csv',
      file: 'some.csv',
    });
    expect(some.row_count).toBe(3);
    expect(file('some.csv')).toBe('id\r\n3\r\n6\r\n9\r\n');
    const none = await exported(client, { sql: 'SELECT id FROM orders WHERE id < 0', format: 'csv', file: 'none.csv' });
    expect(none).toMatchObject({ row_count: 0, bytes: 4, first_rows: [] });
    expect(file('none.csv')).toBe('id\r\n');
    await exported(client, { sql: 'SELECT id FROM orders WHERE id < 0', format: 'jsonl', file: 'none.jsonl' });
    expect(file('none.jsonl')).toBe('');
  });

  it('writes into a subdirectory of the export directory', async () => {
    const client = await serve();
    mkdirSync(join(exportDirectory, 'reports'));
    const result = await exported(client, { sql: 'SELECT 1 AS one', format: 'csv', file: 'reports/one.csv' });
    expect(result.path).toBe(join(exportDirectory, 'reports', 'one.csv'));
    expect(readdirSync(join(exportDirectory, 'reports'))).toEqual(['one.csv']);
    const missing = await client.callTool('export_query', { sql: 'SELECT 1', format: 'csv', file: 'nowhere/one.csv' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toMatch(/"nowhere\/one.csv" is in a directory that does not exist/);
  });

  it.each([
    ['rows', { maxExportRows: 100 }, /more than 100 rows, the export's row cap \(--max-export-rows\)/],
    ['bytes', { maxExportBytes: 1000 }, /larger than 1000 bytes, the export's byte cap \(--max-export-bytes\)/],
  ])('stops at its %s cap with a clear error and writes no file', async (_, limits, message) => {
    const client = await serve({ limits });
    const result = await client.callTool('export_query', { sql: 'SELECT * FROM orders', format: 'csv', file: 'o.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(message);
    expect(result.content[0]?.text).toMatch(/no file was written/);
    expect(readdirSync(exportDirectory)).toEqual([]);
  });

  it('stops at its own time limit, not the query limit, and writes no file', async () => {
    const client = await serve({ limits: { timeoutMs: 600_000, exportTimeoutMs: 1000 } });
    const result = await client.callTool('export_query', { sql: forever, format: 'csv', file: 'never.csv' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/export was stopped after 1000 ms, the export time limit/);
    expect(readdirSync(exportDirectory)).toEqual([]);
  });

  it('reports progress with the bytes written so far', async () => {
    const client = await serve({ limits: { exportTimeoutMs: 1000 } }, { kind: 'v1' });
    const seen: string[] = [];
    const sdk = client.sdk as {
      callTool(params: unknown, schema?: unknown, options?: unknown): Promise<{ isError?: boolean }>;
    };
    const result = await sdk.callTool(
      { name: 'export_query', arguments: { sql: forever, format: 'csv', file: 'p.csv' } },
      undefined,
      {
        onprogress: (progress: { message?: string }) => seen.push(progress.message ?? ''),
      },
    );
    expect(result.isError).toBe(true);
    expect(seen[0]).toMatch(/^export running for \d+ ms; it is stopped at 1000 ms; \d+ bytes written$/);
  });

  it.each(testClientKinds)('%s: a cancelled export writes no file, and the next one runs', async (kind) => {
    const client = await serve({ limits: { exportTimeoutMs: 600_000 } }, { kind });
    const controller = new AbortController();
    const cancelled = client.callTool(
      'export_query',
      { sql: forever, format: 'csv', file: 'c.csv' },
      { signal: controller.signal },
    );
    // The temporary file appears once the export runs: only then is it cancelled.
    await expect.poll(() => readdirSync(exportDirectory).length, { timeout: 30_000 }).toBe(1);
    controller.abort('changed my mind');
    await expect(cancelled).rejects.toThrow();
    await expect.poll(() => readdirSync(exportDirectory), { timeout: 30_000 }).toEqual([]);
    const next = await exported(client, { sql: 'SELECT 2 AS two', format: 'csv', file: 'next.csv' });
    expect(next.row_count).toBe(1);
  });

  it('goes on as a task, and tasks/cancel stops it and leaves no file', async () => {
    const client = await serve({ limits: { exportTimeoutMs: 600_000 } }, { tasks: true });
    const created = await client.request('tools/call', {
      name: 'export_query',
      arguments: { sql: forever, format: 'jsonl', file: 't.jsonl' },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(readdirSync(exportDirectory)).toHaveLength(1);
    await client.request('tasks/cancel', { taskId: created.taskId });
    expect(await awaitTask(client, created.taskId as string)).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => readdirSync(exportDirectory), { timeout: 30_000 }).toEqual([]);
    expect(client.protocolProblems()).toEqual([]);
  });

  it('is listed only with an export directory and ad-hoc SQL, annotated as a writer that never destroys', async () => {
    const client = await serve();
    const tool = (await client.listTools()).find((listed) => listed.name === 'export_query') as Record<string, unknown>;
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    for (const options of [{}, { adHoc: false, exportDirectory: exportDirectory }] as const) {
      const server = createSqlServer({ databases: sample.path, ...options });
      const other = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
      expect((await other.listTools()).map((listed) => listed.name)).not.toContain('export_query');
      await other.close();
      await server.close();
    }
  });

  it('refuses an export directory that does not exist', () => {
    exportDirectory = mkdtempSync(join(tmpdir(), 'toolshed-sql-exports-'));
    expect(() =>
      createSqlServer({ databases: sample.path, exportDirectory: join(exportDirectory, 'missing') }),
    ).toThrow(/--export-dir .*missing must be an existing directory this server can write to/);
  });
});
