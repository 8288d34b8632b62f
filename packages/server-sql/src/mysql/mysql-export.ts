import { ExportOutput } from '../export-output.ts';
import { ExportRows } from '../export-rows.ts';
import type { ExportRequest } from '../query-messages.ts';
import type { GuardedSession } from './mysql-guarded-call.ts';
import { mysqlTypeName, type ValueConverter, valueConverter } from './mysql-values.ts';

/**
 * Runs an admitted statement in the call's guarded session and writes its
 * whole result into the export's file as the rows stream in: values as a
 * query's result holds them, BLOBs whole. When the file's writes fall
 * behind, the connection stops reading from the server until they catch up,
 * so a fast server and a slow disk never fill the server's memory. A cap
 * reached or a failed write stops the statement on the server. Returns what
 * was written, as JSON.
 */
export async function exportMysqlRows(
  session: GuardedSession,
  statement: string,
  params: readonly unknown[],
  request: ExportRequest,
): Promise<string> {
  const started = performance.now();
  const rows = new ExportRows(request.format, request.limits);
  const output = await ExportOutput.open(request.file, (bytes) => rows.written(bytes));
  let converters: ValueConverter[] = [];
  let columnsSeen = false;
  let failure: unknown;
  try {
    await session.stream(statement, params, {
      setColumns(columns) {
        columnsSeen = true;
        converters = columns.map(valueConverter);
        output.write(rows.start(columns.map((column) => ({ name: column.name, type: mysqlTypeName(column) }))));
      },
      add(row) {
        if (failure !== undefined) return false;
        try {
          for (let index = 0; index < row.length; index++) {
            row[index] = (converters[index] as ValueConverter)(row[index], Number.POSITIVE_INFINITY);
          }
          output.write(rows.add(row));
        } catch (error) {
          failure = error;
          return false;
        }
        if (output.congested) {
          session.pause();
          output.drained().then(
            () => session.resume(),
            (error: unknown) => {
              failure ??= error;
              session.resume();
            },
          );
        }
        return true;
      },
    });
    if (failure !== undefined) throw failure;
    if (!columnsSeen) rows.start([]);
    await output.finish();
  } catch (error) {
    await output.abandon();
    throw error;
  }
  return rows.resultJson(performance.now() - started);
}
