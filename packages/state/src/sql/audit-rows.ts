import type {
  AuditCompletion,
  AuditQuery,
  AuditQueryResult,
  AuditRecord,
  AuditStart,
  AuditStore,
} from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { WriteBatch } from './write-batch.ts';

type AuditRow = {
  id: string;
  replica: string;
  started_at: number;
  caller: string;
  server: string;
  tool: string;
  upstream_tool: string;
  arguments_sha256: string;
  approval: string;
  outcome: string;
  duration_ms: number | null;
  error: string | null;
};

const startColumns = [
  'id',
  'replica',
  'started_at',
  'caller',
  'server',
  'tool',
  'upstream_tool',
  'arguments_sha256',
  'approval',
] as const;

function recordOf(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    replica: row.replica,
    time: new Date(Number(row.started_at)).toISOString(),
    caller: row.caller,
    server: row.server,
    tool: row.tool,
    upstream_tool: row.upstream_tool,
    arguments_sha256: row.arguments_sha256,
    approval: row.approval as AuditRecord['approval'],
    outcome: row.outcome as AuditRecord['outcome'],
    ...(row.duration_ms === null ? {} : { duration_ms: Number(row.duration_ms) }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}

type Completion = AuditCompletion & { id: string; finishedAt: number };

/**
 * The audit record as rows: one written when a call starts and completed
 * when it ends, both batched per turn of the event loop (PostgreSQL: one
 * multi-row statement through `unnest`; SQLite: one transaction).
 */
export function createAuditRows(sql: SqlExecutor, replica: string): AuditStore {
  const starts = new WriteBatch<AuditStart>(async (records) => {
    const rows = records.map((record) => [
      record.id,
      replica,
      Date.parse(record.time),
      record.caller,
      record.server,
      record.tool,
      record.upstream_tool,
      record.arguments_sha256,
      record.approval,
    ]);
    if (sql.dialect === 'postgres') {
      const types = ['text', 'text', 'int8', 'text', 'text', 'text', 'text', 'text', 'text'];
      await sql.query(
        `INSERT INTO toolshed_audit (${startColumns.join(', ')}, outcome)
         SELECT *, 'started' FROM unnest(${types.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`,
        types.map((_, column) => rows.map((row) => row[column])),
      );
      return;
    }
    await sql.transaction(async (query) => {
      for (const row of rows) {
        await query.query(
          `INSERT INTO toolshed_audit (${startColumns.join(', ')}, outcome)
           VALUES (${startColumns.map((_, index) => `$${index + 1}`).join(', ')}, 'started')`,
          row,
        );
      }
    });
  });
  const completions = new WriteBatch<Completion>(async (items) => {
    if (sql.dialect === 'postgres') {
      await sql.query(
        `UPDATE toolshed_audit AS audit
         SET approval = done.approval, outcome = done.outcome, duration_ms = done.duration_ms,
             error = done.error, finished_at = done.finished_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int4[], $5::text[], $6::int8[])
           AS done (id, approval, outcome, duration_ms, error, finished_at)
         WHERE audit.id = done.id`,
        [
          items.map((item) => item.id),
          items.map((item) => item.approval),
          items.map((item) => item.outcome),
          items.map((item) => item.duration_ms),
          items.map((item) => item.error ?? null),
          items.map((item) => item.finishedAt),
        ],
      );
      return;
    }
    await sql.transaction(async (query) => {
      for (const item of items) {
        await query.query(
          `UPDATE toolshed_audit SET approval = $2, outcome = $3, duration_ms = $4, error = $5, finished_at = $6
           WHERE id = $1`,
          [item.id, item.approval, item.outcome, item.duration_ms, item.error ?? null, item.finishedAt],
        );
      }
    });
  });

  return {
    begin: (record) => starts.add(record),
    complete: (id, completion) => completions.add({ ...completion, id, finishedAt: Date.now() }),
    async query(filter: AuditQuery): Promise<AuditQueryResult> {
      const conditions: string[] = [];
      const params: unknown[] = [];
      const add = (condition: (placeholder: string) => string, value: unknown) => {
        params.push(value);
        conditions.push(condition(`$${params.length}`));
      };
      if (filter.server !== undefined) add((p) => `server = ${p}`, filter.server);
      if (filter.outcome !== undefined) add((p) => `outcome = ${p}`, filter.outcome);
      if (filter.tool !== undefined) {
        add(
          (p) => (sql.dialect === 'postgres' ? `strpos(lower(tool), ${p}) > 0` : `instr(lower(tool), ${p}) > 0`),
          filter.tool.toLowerCase(),
        );
      }
      if (filter.from !== undefined) add((p) => `started_at >= ${p}`, Date.parse(filter.from));
      if (filter.to !== undefined) add((p) => `started_at <= ${p}`, Date.parse(filter.to));
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const limit = params.length + 1;
      const [rows, matching, total, servers] = await Promise.all([
        sql.query<AuditRow>(
          `SELECT * FROM toolshed_audit ${where} ORDER BY started_at DESC, id DESC LIMIT $${limit} OFFSET $${limit + 1}`,
          [...params, filter.limit, filter.offset ?? 0],
        ),
        sql.query<{ count: number }>(`SELECT count(*) AS count FROM toolshed_audit ${where}`, params),
        sql.query<{ count: number }>('SELECT count(*) AS count FROM toolshed_audit'),
        sql.query<{ server: string }>('SELECT DISTINCT server FROM toolshed_audit ORDER BY server'),
      ]);
      return {
        records: rows.map(recordOf),
        matching: Number(matching[0]?.count ?? 0),
        total: Number(total[0]?.count ?? 0),
        servers: servers.map((row) => row.server),
      };
    },
  };
}
