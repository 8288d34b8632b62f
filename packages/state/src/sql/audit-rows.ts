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
  trace_id: string | null;
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
  'trace_id',
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
    ...(row.trace_id === null ? {} : { trace_id: row.trace_id }),
  };
}

type Completion = AuditCompletion & { id: string; finishedAt: number };

/** One row to write: a call started (`insertOne`'s parameters) or ended (`completeOne`'s). */
export type AuditRowOperation = readonly ['start' | 'complete' | 'whole', unknown[]];

/**
 * Where SQLite's rows go when not written as calls start and end: made
 * durable at once by `record`, applied to the database later; `apply`
 * applies everything recorded so far (before a read).
 */
export interface AuditRowJournal {
  /** Resolves once the row is durable; rejects when it cannot be made so. */
  record(operation: AuditRowOperation): Promise<void>;
  apply(): Promise<void>;
}

const insertOne = `INSERT INTO toolshed_audit (${startColumns.join(', ')}, outcome)
  VALUES (${startColumns.map((_, index) => `$${index + 1}`).join(', ')}, 'started')`;
/** A call that started and ended before its start was written: one row with both. */
export const insertWhole: string = `INSERT INTO toolshed_audit (${startColumns.slice(0, 8).join(', ')},
  approval, outcome, duration_ms, error, finished_at, trace_id)
  VALUES (${Array.from({ length: 14 }, (_, index) => `$${index + 1}`).join(', ')})
  ON CONFLICT (id) DO NOTHING`;

/** PostgreSQL: the starts of many calls in one statement, a column an array. */
const startTypes = ['text', 'text', 'int8', 'text', 'text', 'text', 'text', 'text', 'text', 'text'];
const insertMany = `INSERT INTO toolshed_audit (${startColumns.join(', ')}, outcome)
  SELECT *, 'started' FROM unnest(${startTypes.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`;

/** The same, for a row that may have been written already (a journal replayed twice). */
export const insertOneUnlessPresent: string = `${insertOne} ON CONFLICT (id) DO NOTHING`;
export const completeOne: string = `UPDATE toolshed_audit SET approval = $1, outcome = $2, duration_ms = $3, error = $4,
  finished_at = $5 WHERE id = $6`;

/** The parameters each kind of row takes; a journal line written before `trace_id` has one fewer. */
const parameterCounts = { start: startColumns.length, complete: 6, whole: 14 } as const;

/**
 * The statement and parameters that apply one journalled row. Lines from a
 * journal written before the trace id was recorded lack it at the end: it
 * is then null, so an old journal still replays.
 */
export function auditRowStatement(operation: AuditRowOperation): { statement: string; parameters: unknown[] } {
  const [kind, row] = operation;
  const statement = kind === 'start' ? insertOneUnlessPresent : kind === 'whole' ? insertWhole : completeOne;
  const parameters = row.length < parameterCounts[kind] ? [...row, null] : row;
  return { statement, parameters };
}

/** One row for a call whose start is still in a journal and whose end came: the start's columns with the end's. */
export function wholeRowOf(start: readonly unknown[], completion: readonly unknown[]): unknown[] {
  return [...start.slice(0, 8), ...completion.slice(0, 5), start[9] ?? null];
}

/**
 * The audit record as rows: one written when a call starts and completed
 * when it ends. Through a journal (SQLite's) a row is durable once recorded
 * there and reaches the table in the journal's batches; without one
 * (PostgreSQL's) rows are batched per turn of the event loop, one multi-row
 * statement through `unnest` for every call that started or ended in it.
 */
export function createAuditRows(
  sql: SqlExecutor,
  replica: string,
  /** Where rows are made durable and applied later (SQLite); undefined writes them in batches as they come. */
  journal?: AuditRowJournal,
): AuditStore {
  const rowOf = (record: AuditStart) => [
    record.id,
    replica,
    Date.parse(record.time),
    record.caller,
    record.server,
    record.tool,
    record.upstream_tool,
    record.arguments_sha256,
    record.approval,
    record.trace_id ?? null,
  ];
  const completionRow = (item: Completion) => [
    item.approval,
    item.outcome,
    item.duration_ms,
    item.error ?? null,
    item.finishedAt,
    item.id,
  ];
  const starts = new WriteBatch<AuditStart>(async (records) => {
    const rows = records.map(rowOf);
    await sql.query(
      insertMany,
      startTypes.map((_, column) => rows.map((row) => row[column])),
    );
  });
  const completions = new WriteBatch<Completion>(async (items) => {
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
  });

  return {
    begin: (start) => (journal === undefined ? starts.add(start) : journal.record(['start', rowOf(start)])),
    complete: (id, completion) => {
      const item = { ...completion, id, finishedAt: Date.now() };
      return journal === undefined ? completions.add(item) : journal.record(['complete', completionRow(item)]);
    },
    async query(filter: AuditQuery): Promise<AuditQueryResult> {
      await journal?.apply();
      const conditions: string[] = [];
      const params: unknown[] = [];
      const add = (condition: (placeholder: string) => string, value: unknown) => {
        params.push(value);
        conditions.push(condition(`$${params.length}`));
      };
      if (filter.server !== undefined) add((p) => `server = ${p}`, filter.server);
      if (filter.outcome !== undefined) add((p) => `outcome = ${p}`, filter.outcome);
      if (filter.traceId !== undefined) add((p) => `trace_id = ${p}`, filter.traceId.toLowerCase());
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
