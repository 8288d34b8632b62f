import type { ClientBase, FieldDef } from 'pg';
import { ExportOutput } from '../export-output.ts';
import { ExportRows } from '../export-rows.ts';
import type { ExportRequest } from '../query-messages.ts';
import { streamRows } from './postgres-row-stream.ts';
import { boundValues, type PostgresTypeNames } from './postgres-rows.ts';
import { postgresTypeParsers } from './postgres-values.ts';

/** Rows fetched at a time: a few megabytes of a typical result, one round trip each. */
const batchRows = 5000;

/**
 * Runs an admitted statement in its read-only transaction and writes its
 * whole result into the export's file, a batch of rows at a time (see
 * `streamRows`): values as a query's result holds them, BLOBs whole. A
 * consumer that stops (a cap, a failed write, `stop` aborted) ends the
 * statement's transaction at the next batch. Returns what was written, as
 * JSON, and whether the session was reset.
 */
export async function exportPostgresRows(
  client: ClientBase,
  transaction: { before: readonly string[]; after: readonly string[] },
  request: ExportRequest,
  typeNames: PostgresTypeNames,
  stop: AbortSignal,
): Promise<{ json: string; finished: boolean }> {
  const started = performance.now();
  const output = await ExportOutput.open(request.file);
  const rows = new ExportRows(request.format, request.limits);
  let fields: readonly FieldDef[] | undefined;
  let finished: boolean;
  try {
    finished = await streamRows(
      client,
      { ...transaction, text: request.sql, values: boundValues(request.params), batchRows },
      postgresTypeParsers(Number.MAX_SAFE_INTEGER),
      {
        onFields(described) {
          fields = described;
          output.write(rows.start(described.map((field) => ({ name: field.name, type: null }))));
        },
        onRows(batch) {
          for (const row of batch) output.write(rows.add(row));
          return output.congested ? output.drained() : undefined;
        },
        stopped: () => stop.aborted,
      },
    );
    if (stop.aborted) throw stop.reason;
    // A statement that returns no rows at all (no columns either) writes an empty file.
    if (fields === undefined) rows.start([]);
    await output.finish();
  } catch (error) {
    await output.abandon();
    throw error;
  }
  const elapsedMs = performance.now() - started;
  // Type names unknown so far are looked up after the reset, outside any transaction of the call.
  if (fields !== undefined) rows.columns = await typeNames.columns(client, fields);
  return { json: rows.resultJson(elapsedMs), finished };
}
