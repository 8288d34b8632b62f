import type { ClientBase, FieldDef } from 'pg';
import { QueryFailure } from '../query-failure.ts';
import type { RowLimits, SqlParameters } from '../query-messages.ts';
import { queryResultJson, type ResultColumn, type TruncatedBy } from '../sql-rows.ts';
import { callStatement } from './postgres-statement-call.ts';
import { knownTypeNames, postgresTypeParsers } from './postgres-values.ts';

/** Type names by OID for one database, learnt from pg_type as results show new ones. */
export class PostgresTypeNames {
  readonly #names = new Map<number, string>(knownTypeNames);

  async columns(client: ClientBase, fields: readonly FieldDef[]): Promise<ResultColumn[]> {
    const unknown = [...new Set(fields.map((field) => field.dataTypeID))].filter((oid) => !this.#names.has(oid));
    if (unknown.length > 0) {
      const { rows } = await client.query<{ oid: number; name: string }>({
        text: 'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])',
        values: [unknown],
      });
      for (const row of rows) this.#names.set(row.oid, row.name);
    }
    return fields.map((field) => ({ name: field.name, type: this.#names.get(field.dataTypeID) ?? null }));
  }
}

/** `params` as PostgreSQL binds them: an array for $1, $2…; booleans as booleans, the rest as text. */
export function boundValues(params: SqlParameters | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) {
    throw new QueryFailure(
      'sql_error',
      'PostgreSQL binds params by position: send an array whose first value is $1, the second $2, and so on.',
    );
  }
  return params as unknown[];
}

/**
 * Runs one statement inside its read-only transaction, with the limits set
 * before it and the rollback and session reset after it, in one round trip
 * (see `callStatement`), fetching only the rows the limits allow plus one to
 * know whether more existed. Returns the `query` tool's result as JSON text,
 * the same shape as SQLite's, and whether the session was reset.
 */
export async function readPostgresRowsAsJson(
  client: ClientBase,
  transaction: { before: readonly string[]; after: readonly string[] },
  sql: string,
  params: SqlParameters | undefined,
  limits: RowLimits,
  typeNames: PostgresTypeNames,
): Promise<{ json: string; finished: boolean }> {
  const started = performance.now();
  const result = await callStatement(
    client,
    { ...transaction, text: sql, values: boundValues(params), rows: limits.maxRows + 1 },
    postgresTypeParsers(limits.maxBlobBytes),
  );
  const encoded: string[] = [];
  let bytes = 2;
  let truncatedBy: TruncatedBy | undefined;
  for (const row of result.rows) {
    if (encoded.length === limits.maxRows) {
      truncatedBy = 'max_rows';
      break;
    }
    const text = JSON.stringify(row);
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > limits.maxBytes) {
      truncatedBy = 'max_bytes';
      break;
    }
    bytes += size;
    encoded.push(text);
  }
  const elapsedMs = Math.round((performance.now() - started) * 1000) / 1000;
  // Type names unknown so far are looked up after the reset, outside any transaction of the call.
  const columns = await typeNames.columns(client, result.fields);
  return {
    json: queryResultJson(columns, `[${encoded.join(',')}]`, encoded.length, truncatedBy, limits, elapsedMs),
    finished: result.finished,
  };
}
