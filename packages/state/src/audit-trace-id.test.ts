import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceGate } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from './open-state-store.ts';
import { PostgresExecutor } from './postgres/postgres-executor.ts';
import { migrations } from './sql/schema-migrations.ts';
import type { SqlExecutor } from './sql/sql-executor.ts';
import { SqliteExecutor } from './sqlite/sqlite-executor.ts';
import type { AuditStart, StateStore } from './state-store.ts';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from './testing.ts';

/** The schema as a release before the trace id left it: migrations 1 to 3, applied as that release applied them. */
async function migrateAsBefore(sql: SqlExecutor): Promise<void> {
  await sql.query(
    'CREATE TABLE IF NOT EXISTS toolshed_schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)',
  );
  for (const migration of migrations.filter((each) => each.version <= 3)) {
    for (const statement of migration.statements) await sql.query(statement);
    await sql.query('INSERT INTO toolshed_schema_migrations (version, applied_at) VALUES ($1, $2)', [
      migration.version,
      Date.now(),
    ]);
  }
}

/** A row as the release before wrote it: no trace_id column at all. */
async function writeOldRow(sql: SqlExecutor, id: string): Promise<void> {
  await sql.query(
    `INSERT INTO toolshed_audit (id, replica, started_at, finished_at, caller, server, tool, upstream_tool,
       arguments_sha256, approval, outcome, duration_ms) VALUES ($1, 'old-replica', $2, $2, 'c', 'before', 'before_tool',
       'tool', 'x', 'not_required', 'ok', 3)`,
    [id, Date.now()],
  );
}

const traceId = () => randomBytes(16).toString('hex');

function start(id: string, server: string, trace: string | undefined): AuditStart {
  return {
    id,
    time: new Date().toISOString(),
    caller: 'c',
    server,
    tool: `${server}_tool`,
    upstream_tool: 'tool',
    arguments_sha256: 'x',
    approval: 'not_required',
    ...(trace === undefined ? {} : { trace_id: trace }),
  };
}

function traceIdContract(engine: string, setUp: () => Promise<{ store: StateStore; tearDown(): Promise<void> }>) {
  describe(`${engine}: a database from before the trace id`, () => {
    let store: StateStore;
    let tearDown: () => Promise<void>;
    beforeAll(async () => {
      ({ store, tearDown } = await setUp());
    });
    afterAll(async () => {
      await store?.close();
      await tearDown?.();
    });

    it('migrates, keeping its rows, which have no trace id', async () => {
      const page = await store.audit.query({ server: 'before', limit: 10 });
      expect(page.records).toHaveLength(1);
      expect(page.records[0]).toMatchObject({ id: 'old-1', outcome: 'ok', duration_ms: 3 });
      expect(page.records[0]).not.toHaveProperty('trace_id');
    });

    it('records the trace id of a call as it starts, keeps it as it ends, and finds the calls of a trace', async () => {
      const trace = traceId();
      const other = traceId();
      await Promise.all([
        store.audit.begin(start(`${engine}-traced-1`, 'traced', trace)),
        store.audit.begin(start(`${engine}-traced-2`, 'traced', trace)),
        store.audit.begin(start(`${engine}-other`, 'traced', other)),
        store.audit.begin(start(`${engine}-untraced`, 'traced', undefined)),
      ]);
      const started = await store.audit.query({ traceId: trace, limit: 10 });
      expect(started.records.map((record) => record.id).sort()).toEqual([`${engine}-traced-1`, `${engine}-traced-2`]);
      expect(started.records.every((record) => record.outcome === 'started' && record.trace_id === trace)).toBe(true);
      await store.audit.complete(`${engine}-traced-1`, { approval: 'not_required', outcome: 'ok', duration_ms: 5 });
      const ended = await store.audit.query({ traceId: trace.toUpperCase(), outcome: 'ok', limit: 10 });
      expect(ended.records).toEqual([expect.objectContaining({ id: `${engine}-traced-1`, trace_id: trace })]);
      const untraced = (await store.audit.query({ server: 'traced', limit: 10 })).records.find(
        (record) => record.id === `${engine}-untraced`,
      );
      expect(untraced).toBeDefined();
      expect(untraced).not.toHaveProperty('trace_id');
    });

    it('keeps the trace id of a call that ends before its start reaches the table', async () => {
      // The embedded store then writes one row with both (see the audit journal).
      const trace = traceId();
      await store.audit.begin(start(`${engine}-quick`, 'quick', trace));
      await store.audit.complete(`${engine}-quick`, { approval: 'waived', outcome: 'tool_error', duration_ms: 1 });
      const [record] = (await store.audit.query({ traceId: trace, limit: 10 })).records;
      expect(record).toMatchObject({
        id: `${engine}-quick`,
        outcome: 'tool_error',
        approval: 'waived',
        trace_id: trace,
      });
    });
  });
}

traceIdContract('sqlite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-trace-'));
  const path = join(directory, 'state.db');
  const database = new Database(path);
  const old = new SqliteExecutor(database);
  await migrateAsBefore(old);
  await writeOldRow(old, 'old-1');
  database.close();
  const store = await openStateStore({ location: path });
  return { store, tearDown: async () => rmSync(directory, { recursive: true, force: true }) };
});

describe.runIf(serviceGate(postgresStateService, it))('with PostgreSQL', () => {
  traceIdContract('postgres', async () => {
    const server: PostgresStateServer = await startPostgresStateServer();
    process.env.PGPASSWORD = server.env.PGPASSWORD;
    const pool = new pg.Pool({ connectionString: server.url, password: server.env.PGPASSWORD });
    const old = new PostgresExecutor(pool);
    await migrateAsBefore(old);
    await writeOldRow(old, 'old-1');
    await pool.end();
    const store = await openStateStore({ location: server.url });
    return { store, tearDown: () => server.stop() };
  });
});

describe('an audit journal left by a process of the release before', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-state-old-journal-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('replays, its rows without a trace id', async () => {
    const path = join(directory, 'state.db');
    const database = new Database(path);
    await migrateAsBefore(new SqliteExecutor(database));
    database.close();
    // Lines as that release wrote them: a start of 9 columns, a whole row of 13, a completion of 6.
    const now = Date.now();
    const lines = [
      ['start', ['journal-started', 'dead-replica', now, 'c', 'journal', 'journal_tool', 'tool', 'x', 'not_required']],
      [
        'whole',
        [
          'journal-whole',
          'dead-replica',
          now,
          'c',
          'journal',
          'journal_tool',
          'tool',
          'x',
          'approved',
          'ok',
          7,
          null,
          now,
        ],
      ],
      ['start', ['journal-ended', 'dead-replica', now, 'c', 'journal', 'journal_tool', 'tool', 'x', 'not_required']],
      ['complete', ['not_required', 'timeout', 9, 'took too long', now, 'journal-ended']],
    ];
    mkdirSync(`${path}-audit`);
    // A pid above the kernel's largest: the process that wrote it is gone.
    writeFileSync(
      join(`${path}-audit`, `${hostname()}_4194305_unknown.log`),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    );
    const store = await openStateStore({ location: path });
    try {
      const { records } = await store.audit.query({ server: 'journal', limit: 10 });
      const byId = Object.fromEntries(records.map((record) => [record.id, record]));
      expect(byId['journal-whole']).toMatchObject({ outcome: 'ok', approval: 'approved', duration_ms: 7 });
      expect(byId['journal-ended']).toMatchObject({ outcome: 'timeout', error: 'took too long' });
      expect(byId['journal-started']).toMatchObject({ replica: 'dead-replica', approval: 'not_required' });
      for (const record of records) expect(record).not.toHaveProperty('trace_id');
    } finally {
      await store.close();
    }
  });
});
