import { serviceGate } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresServer,
  postgresService,
  roleNames,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import type { SqlOutcome } from '../sql-engine.ts';
import { sqlServerOptions } from '../sql-server-options.ts';
import { PostgresDatabase } from './postgres-database.ts';

/**
 * The layers behind the statement gate, each shown holding with the gate
 * switched off and the owner of the tables (who could write them) as the
 * role: one statement per call, the READ ONLY transaction, the rollback and
 * the clean connection. One connection, so that whatever a call left behind
 * would be met by the next.
 */

let postgres: PostgresServer;
let admin: pg.Client;
let database: PostgresDatabase;

const limits = sqlServerOptions.parse({ databases: 'x', limits: { maxConcurrentQueries: 1, timeoutMs: 5000 } }).limits;
const rowLimits = { maxRows: 100, maxBytes: 100_000, maxBlobBytes: 16 };

async function run(sql: string): Promise<SqlOutcome> {
  return database.run(
    { kind: 'query', database: 'app', sql, params: undefined, limits: rowLimits },
    { signal: new AbortController().signal, progress: () => {} },
  );
}

async function rows(sql: string): Promise<unknown[][]> {
  const outcome = await run(sql);
  if (!outcome.ok) throw new Error(outcome.message);
  return (JSON.parse(outcome.json) as { rows: unknown[][] }).rows;
}

describe.runIf(serviceGate(postgresService, it))('PostgreSQL layers without the statement gate', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer();
    admin = await postgres.admin();
    database = new PostgresDatabase(
      { name: 'app', url: postgres.url('owner') },
      { limits, allowPrivilegedRole: false, warn: () => {} },
      { statementGate: false },
    );
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await admin?.end();
    await postgres?.stop();
  });

  it('sends one statement per call: the server refuses a second one', async () => {
    const outcome = await run('SELECT 1; DELETE FROM orders');
    expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/cannot insert multiple commands/) });
  });

  it.each([
    ['DELETE FROM orders'],
    ["UPDATE customers SET name = 'x'"],
    ['DROP TABLE orders'],
    ['CREATE TABLE stolen (x int)'],
    ["SELECT nextval('invoice_numbers')"],
    ['WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone'],
  ])('runs each call in a READ ONLY transaction: %s fails', async (sql) => {
    const outcome = await run(sql);
    expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/read-only transaction/) });
    expect((await admin.query('SELECT count(*)::int AS n FROM orders')).rows[0].n).toBe(250);
  });

  it('rolls back: a transaction escape is refused by the server', async () => {
    expect(await run('COMMIT')).toMatchObject({ ok: true });
    // COMMIT inside our transaction ends it; the statement after it would run outside, but none can follow.
    expect(await rows('SELECT transaction_timestamp() = statement_timestamp()')).toBeDefined();
    expect((await admin.query('SELECT count(*)::int AS n FROM orders')).rows[0].n).toBe(250);
  });

  it('returns the connection clean: settings, advisory locks, prepared statements, listeners and cursors are gone', async () => {
    const before = await rows('SELECT pg_backend_pid()');
    await rows("SELECT set_config('work_mem', '77MB', false)");
    await rows('SELECT pg_advisory_lock(7)');
    await run('PREPARE leftover AS SELECT 1');
    await run('LISTEN leftover');
    await run('DECLARE leftover CURSOR WITH HOLD FOR SELECT 1');
    expect(await rows('SELECT pg_backend_pid()')).toEqual(before);
    expect(await rows("SELECT current_setting('work_mem') <> '77MB'")).toEqual([[true]]);
    expect(await rows("SELECT count(*)::int FROM pg_prepared_statements WHERE name = 'leftover'")).toEqual([[0]]);
    expect(await rows('SELECT count(*)::int FROM pg_listening_channels()')).toEqual([[0]]);
    expect(await rows("SELECT count(*)::int FROM pg_cursors WHERE name = 'leftover'")).toEqual([[0]]);
    const locks = await admin.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks.rows[0].n).toBe(0);
  });

  it('holds every call to its limits and formats, whatever the role, the URL or the call before set', async () => {
    await admin.query(`ALTER ROLE ${roleNames.owner} SET lock_timeout = 0`);
    const loose = new PostgresDatabase(
      {
        name: 'app',
        url: `${postgres.url('owner')}?options=${encodeURIComponent('-c statement_timeout=0 -c DateStyle=SQL,DMY')}`,
      },
      { limits, allowPrivilegedRole: false, warn: () => {} },
      { statementGate: false },
    );
    const settings = async () => {
      const outcome = await loose.run(
        {
          kind: 'query',
          database: 'app',
          sql: "SELECT current_setting('statement_timeout'), current_setting('lock_timeout'), current_setting('DateStyle'), current_setting('transaction_read_only')",
          params: undefined,
          limits: rowLimits,
        },
        { signal: new AbortController().signal, progress: () => {} },
      );
      if (!outcome.ok) throw new Error(outcome.message);
      return (JSON.parse(outcome.json) as { rows: unknown[][] }).rows;
    };
    try {
      expect(await settings()).toEqual([['5s', '5s', 'ISO, YMD', 'on']]);
      await loose.run(
        {
          kind: 'query',
          database: 'app',
          sql: "SELECT set_config('statement_timeout', '0', false), set_config('DateStyle', 'SQL', false)",
          params: undefined,
          limits: rowLimits,
        },
        { signal: new AbortController().signal, progress: () => {} },
      );
      expect(await settings()).toEqual([['5s', '5s', 'ISO, YMD', 'on']]);
    } finally {
      await loose.close();
      await admin.query(`ALTER ROLE ${roleNames.owner} RESET lock_timeout`);
    }
  });

  it('keeps its own time limit when a statement switches statement_timeout off', async () => {
    const outcome = run(
      "SELECT set_config('statement_timeout', '0', true), count(*) FROM generate_series(1, 1e12::bigint)",
    );
    await expect(outcome).rejects.toThrow(/stopped after 5000 ms, the time limit/);
    const active = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'toolshed-sql' AND state = 'active'",
    );
    expect(active.rows[0].n).toBe(0);
  }, 30_000);
});
