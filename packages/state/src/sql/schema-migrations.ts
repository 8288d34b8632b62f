import type { SqlExecutor } from './sql-executor.ts';

/**
 * The store's tables, one numbered migration at a time. The same text runs
 * on both engines: BIGINT is SQLite's INTEGER, and both take partial indexes.
 * A migration once released is never edited; a change is a new one.
 */
export const migrations: readonly { version: number; statements: readonly string[] }[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE toolshed_replicas (id TEXT PRIMARY KEY, lock_key BIGINT NOT NULL, host_name TEXT NOT NULL,
        pid BIGINT NOT NULL, process_start TEXT, started_at BIGINT NOT NULL)`,
      `CREATE TABLE toolshed_audit (id TEXT PRIMARY KEY, replica TEXT NOT NULL, started_at BIGINT NOT NULL,
        finished_at BIGINT, caller TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, upstream_tool TEXT NOT NULL,
        arguments_sha256 TEXT NOT NULL, approval TEXT NOT NULL, outcome TEXT NOT NULL, duration_ms BIGINT, error TEXT)`,
      'CREATE INDEX toolshed_audit_by_time ON toolshed_audit (started_at)',
      "CREATE INDEX toolshed_audit_unfinished ON toolshed_audit (replica) WHERE outcome = 'started'",
      `CREATE TABLE toolshed_approvals (id TEXT PRIMARY KEY, replica TEXT NOT NULL, retry_key TEXT, caller TEXT NOT NULL,
        server TEXT NOT NULL, tool TEXT NOT NULL, upstream_tool TEXT NOT NULL, arguments TEXT NOT NULL,
        arguments_sha256 TEXT NOT NULL, reason TEXT NOT NULL, preview TEXT, requested_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL, decision TEXT, decided_by TEXT, decided_at BIGINT, used_at BIGINT)`,
      'CREATE INDEX toolshed_approvals_waiting ON toolshed_approvals (requested_at) WHERE decision IS NULL',
      'CREATE INDEX toolshed_approvals_by_retry ON toolshed_approvals (retry_key) WHERE retry_key IS NOT NULL',
      `CREATE TABLE toolshed_console_tokens (id TEXT PRIMARY KEY, user_name TEXT NOT NULL, label TEXT NOT NULL,
        sha256 TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL, last_used_at BIGINT, revoked_at BIGINT)`,
      `CREATE TABLE toolshed_console_sessions (id_sha256 TEXT PRIMARY KEY, user_name TEXT NOT NULL,
        token_id TEXT NOT NULL, csrf TEXT NOT NULL, created_at BIGINT NOT NULL, last_seen BIGINT NOT NULL)`,
      'CREATE INDEX toolshed_console_sessions_by_token ON toolshed_console_sessions (token_id)',
      'CREATE TABLE toolshed_rate_calls (key TEXT NOT NULL, at BIGINT NOT NULL)',
      'CREATE INDEX toolshed_rate_calls_by_key ON toolshed_rate_calls (key, at)',
      `CREATE TABLE toolshed_idempotency_keys (scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
        state TEXT NOT NULL, outcome TEXT, replica TEXT NOT NULL, expires_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL, PRIMARY KEY (scope, key))`,
      "CREATE INDEX toolshed_idempotency_sending ON toolshed_idempotency_keys (replica) WHERE state = 'sending'",
      'CREATE TABLE toolshed_spent_nonces (nonce TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)',
      'CREATE TABLE toolshed_parked_calls (key TEXT PRIMARY KEY, replica TEXT NOT NULL, expires_at BIGINT NOT NULL)',
    ],
  },
  {
    version: 2,
    statements: [
      // cancel_requested: 0 not asked, 1 asked and waiting for the holder, 2 passed to the holder (or no longer needed).
      `CREATE TABLE toolshed_tasks (task_id TEXT PRIMARY KEY, principal TEXT NOT NULL, replica TEXT NOT NULL,
        status TEXT NOT NULL, status_message TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
        ttl_ms BIGINT NOT NULL, input_requests TEXT, result TEXT, error TEXT,
        cancel_requested SMALLINT NOT NULL DEFAULT 0, pending_responses TEXT)`,
      "CREATE INDEX toolshed_tasks_unfinished ON toolshed_tasks (replica) WHERE status IN ('working', 'input_required')",
      `CREATE INDEX toolshed_tasks_signalled ON toolshed_tasks (replica)
        WHERE cancel_requested = 1 OR pending_responses IS NOT NULL`,
      'CREATE INDEX toolshed_tasks_by_expiry ON toolshed_tasks ((created_at + ttl_ms))',
    ],
  },
  {
    version: 3,
    // Where the replica holding a parked call answers, so that a retry reaching another replica is relayed to it.
    statements: ['ALTER TABLE toolshed_parked_calls ADD COLUMN endpoint TEXT'],
  },
  {
    version: 4,
    // The trace of each call when telemetry is on, so an operator goes from an audit row to its trace and back.
    statements: [
      'ALTER TABLE toolshed_audit ADD COLUMN trace_id TEXT',
      'CREATE INDEX toolshed_audit_by_trace ON toolshed_audit (trace_id) WHERE trace_id IS NOT NULL',
    ],
  },
];

/** Applies the migrations not applied yet, in order, in one transaction that holds the migration lock. */
export async function migrate(sql: SqlExecutor): Promise<number[]> {
  await sql.query(
    'CREATE TABLE IF NOT EXISTS toolshed_schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)',
  );
  return sql.transaction(async (query) => {
    const applied = new Set(
      (await query.query<{ version: number }>('SELECT version FROM toolshed_schema_migrations')).map((row) =>
        Number(row.version),
      ),
    );
    const newest = Math.max(0, ...applied);
    const known = Math.max(...migrations.map((migration) => migration.version));
    if (newest > known) {
      throw new Error(
        `the store's schema is version ${newest}, newer than this Toolshed knows (${known}): upgrade Toolshed`,
      );
    }
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await query.query(statement);
      await query.query('INSERT INTO toolshed_schema_migrations (version, applied_at) VALUES ($1, $2)', [
        migration.version,
        Date.now(),
      ]);
      done.push(migration.version);
    }
    return done;
  }, 'migrations');
}
