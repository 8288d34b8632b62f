import type { ClientBase, FieldDef } from 'pg';
import { csvField, csvText } from '../export-encoding.ts';
import { ExportOutput } from '../export-output.ts';
import { ExportRows } from '../export-rows.ts';
import type { ExportRequest } from '../query-messages.ts';
import { type RawRow, streamRows } from './postgres-row-stream.ts';
import { boundValues, type PostgresTypeNames } from './postgres-rows.ts';
import { type RowDecoder, rowDecoder } from './postgres-statement-call.ts';
import { postgresTypeParsers } from './postgres-values.ts';

/** Rows fetched at a time: a few megabytes of a typical result, one round trip each. */
const batchRows = 5000;

/** Numbers (integers, floating point, numeric): PostgreSQL's text of them never needs quoting. */
const numberTypes = new Set([20, 21, 23, 26, 700, 701, 1700]);

/** Types whose value a query's result holds as the very text PostgreSQL sent (see postgresTypeParsers). */
const textTypes = new Set([25, 1043, 1042, 18, 19, 2950, 1082, 1083, 1266, 1186, 869, 650, 790, 3614, 142]);

type CsvWriter = (text: string) => string;

/**
 * How one column's text becomes a CSV field: numbers as PostgreSQL prints
 * them, text-like values as they came (quoted when they must be), and every
 * other type through the value a query's result would hold (ISO timestamps,
 * `true`/`false`, BLOBs in base64, JSON as compact JSON text).
 */
function csvWriter(field: FieldDef, decode: (text: string) => unknown): CsvWriter {
  if (numberTypes.has(field.dataTypeID)) return (text) => text;
  if (textTypes.has(field.dataTypeID)) return csvText;
  return (text) => csvField(decode(text));
}

/** A CSV row from the text PostgreSQL sent, one writer a column; NULL an empty field. */
function csvLine(row: RawRow, writers: readonly CsvWriter[]): string {
  let line = '';
  for (let index = 0; index < row.length; index++) {
    if (index > 0) line += ',';
    const text = row[index];
    if (text !== null && text !== undefined) line += (writers[index] as CsvWriter)(text);
  }
  return `${line}\r\n`;
}

/**
 * Runs an admitted statement in its read-only transaction and writes its
 * whole result into the export's file, a batch of rows at a time (see
 * `streamRows`). JSONL holds the values a query's result holds, BLOBs whole;
 * CSV is written straight from the text the server sent where that text is
 * the value (numbers, text), which spares decoding most fields. A consumer
 * that stops (a cap, a failed write, `stop` aborted) ends the statement's
 * transaction at the next batch. Returns what was written, as JSON, and
 * whether the session was reset.
 */
export async function exportPostgresRows(
  client: ClientBase,
  transaction: { before: readonly string[]; after: readonly string[] },
  request: ExportRequest,
  typeNames: PostgresTypeNames,
  stop: AbortSignal,
): Promise<{ json: string; finished: boolean }> {
  const started = performance.now();
  const rows = new ExportRows(request.format, request.limits);
  const output = await ExportOutput.open(request.file, (bytes) => rows.written(bytes));
  const types = postgresTypeParsers(Number.MAX_SAFE_INTEGER);
  const decoder: RowDecoder = rowDecoder(types);
  let fields: readonly FieldDef[] | undefined;
  let writers: CsvWriter[] | undefined;
  let finished: boolean;
  try {
    finished = await streamRows(
      client,
      { ...transaction, text: request.sql, values: boundValues(request.params), batchRows },
      {
        onFields(described) {
          fields = described;
          decoder.addFields([...described]);
          if (request.format === 'csv') {
            writers = described.map((field) => csvWriter(field, types.getTypeParser(field.dataTypeID)));
          }
          output.write(rows.start(described.map((field) => ({ name: field.name, type: null }))));
        },
        onRows(batch) {
          let text = '';
          if (writers === undefined) {
            for (const row of batch) text += rows.add(decoder.parseRow(row as unknown[]) as unknown[]);
          } else {
            for (const row of batch) {
              // Decoded only for the few rows the answer shows.
              const shown = rows.showsNext ? (decoder.parseRow(row as unknown[]) as unknown[]) : undefined;
              text += rows.addEncoded(csvLine(row, writers), shown);
            }
          }
          output.write(text);
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
