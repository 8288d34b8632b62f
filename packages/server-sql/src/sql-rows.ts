import type Database from 'better-sqlite3';
import type { RowLimits, SqlParameters } from './query-messages.ts';

/** A column of a result: its name and the type it was declared with (null for expressions). */
export interface ResultColumn {
  name: string;
  type: string | null;
}

export type TruncatedBy = 'max_rows' | 'max_bytes';

interface CollectedRows {
  rows: unknown[][];
  truncatedBy: TruncatedBy | undefined;
  /** An integer outside ±2^53 arrived as an inexact number: read again with exact integers. */
  needsExactIntegers: boolean;
}

/** A BLOB as JSON: base64 with its length, or only its length past the cap. */
function blobValue(bytes: Uint8Array, maxBlobBytes: number): { type: 'blob'; bytes: number; base64: string | null } {
  const base64 =
    bytes.length <= maxBlobBytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64') : null;
  return { type: 'blob', bytes: bytes.length, base64 };
}

/**
 * Makes one row safe for JSON in place and returns a lower bound of its JSON
 * length, so fetching can stop near the byte cap without encoding each row.
 */
function prepareRow(row: unknown[], exactIntegers: boolean, maxBlobBytes: number): number | undefined {
  let length = 2;
  for (let index = 0; index < row.length; index++) {
    const value = row[index];
    switch (typeof value) {
      case 'string':
        length += value.length + 3;
        break;
      case 'number':
        if (!exactIntegers && Number.isInteger(value) && !Number.isSafeInteger(value)) return undefined;
        // JSON has no infinities; SQLite REALs can hold them (1e999).
        if (value === Infinity || value === -Infinity) row[index] = String(value);
        length += 4;
        break;
      case 'bigint':
        row[index] = value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value.toString();
        length += 4;
        break;
      case 'object':
        if (value === null) length += 5;
        else {
          const blob = blobValue(value as Uint8Array, maxBlobBytes);
          row[index] = blob;
          length += 40 + (blob.base64?.length ?? 0);
        }
        break;
      default:
        row[index] = String(value);
        length += 4;
    }
  }
  return length;
}

function collectRows(
  statement: Database.Statement,
  params: SqlParameters | undefined,
  limits: RowLimits,
  exactIntegers: boolean,
): CollectedRows {
  statement.safeIntegers(exactIntegers);
  const rows: unknown[][] = [];
  let length = 2;
  const iterator = (params === undefined ? statement.iterate() : statement.iterate(params)) as IterableIterator<
    unknown[]
  >;
  for (const row of iterator) {
    // The row past max_rows is fetched only to know that the result was cut.
    if (rows.length === limits.maxRows) return { rows, truncatedBy: 'max_rows', needsExactIntegers: false };
    const rowLength = prepareRow(row, exactIntegers, limits.maxBlobBytes);
    if (rowLength === undefined) return { rows, truncatedBy: undefined, needsExactIntegers: true };
    length += rowLength;
    if (length > limits.maxBytes) return { rows, truncatedBy: 'max_bytes', needsExactIntegers: false };
    rows.push(row);
  }
  return { rows, truncatedBy: undefined, needsExactIntegers: false };
}

/** Cuts rows from the end until their JSON fits the byte cap (the estimate counted escapes and UTF-8 short). */
function fitToBytes(rows: unknown[][], maxBytes: number): string {
  const encoded = rows.map((row) => JSON.stringify(row));
  let total = 2;
  let kept = 0;
  for (const text of encoded) {
    const size = Buffer.byteLength(text) + 1;
    if (total + size > maxBytes) break;
    total += size;
    kept++;
  }
  rows.length = kept;
  return `[${encoded.slice(0, kept).join(',')}]`;
}

/** `params` as better-sqlite3 binds them the way the model means them. */
export function toBoundValues(params: SqlParameters | undefined): SqlParameters | undefined {
  if (params === undefined) return undefined;
  // A whole number binds as an INTEGER, as the model means it (better-sqlite3 binds every number as a REAL).
  const bind = (value: unknown) =>
    typeof value === 'boolean' ? Number(value) : Number.isSafeInteger(value) ? BigInt(value as number) : value;
  if (Array.isArray(params)) return params.map(bind) as SqlParameters;
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, bind(value)])) as SqlParameters;
}

/**
 * Runs a reader statement within the limits and returns the `query` tool's
 * structured result as JSON text: columns with declared types, rows as
 * arrays in column order, row_count, truncated (and why), elapsed_ms.
 */
export function readRowsAsJson(
  statement: Database.Statement,
  params: SqlParameters | undefined,
  limits: RowLimits,
): string {
  const started = performance.now();
  const columns: ResultColumn[] = statement.columns().map((column) => ({ name: column.name, type: column.type }));
  statement.raw(true);
  const bound = toBoundValues(params);
  let collected = collectRows(statement, bound, limits, false);
  if (collected.needsExactIntegers) collected = collectRows(statement, bound, limits, true);
  const { rows } = collected;
  let { truncatedBy } = collected;
  let rowsJson = JSON.stringify(rows);
  if (Buffer.byteLength(rowsJson) > limits.maxBytes) {
    rowsJson = fitToBytes(rows, limits.maxBytes);
    truncatedBy = 'max_bytes';
  }
  const elapsedMs = Math.round((performance.now() - started) * 1000) / 1000;
  return queryResultJson(columns, rowsJson, rows.length, truncatedBy, limits, elapsedMs);
}

/**
 * The `query` tool's structured result as JSON text, the same for every
 * engine: columns, rows (already JSON), row_count, truncated (and why, with
 * how to get the rest), elapsed_ms.
 */
export function queryResultJson(
  columns: readonly ResultColumn[],
  rowsJson: string,
  rowCount: number,
  truncatedBy: TruncatedBy | undefined,
  limits: RowLimits,
  elapsedMs: number,
  /** The engine's name for the function that shortens a value, for the hint. */
  substring = 'substr',
): string {
  let tail = `,"row_count":${rowCount},"truncated":${truncatedBy !== undefined}`;
  if (truncatedBy !== undefined) {
    const hint =
      truncatedBy === 'max_rows'
        ? `More rows exist than max_rows (${limits.maxRows}). Narrow the WHERE clause, aggregate, or page with LIMIT/OFFSET or a keyset (WHERE id > last_id).`
        : `The rows reached the ${limits.maxBytes}-byte result cap. Select fewer columns, shorten long values (${substring}), or page with LIMIT/OFFSET.`;
    tail += `,"truncated_by":"${truncatedBy}","hint":${JSON.stringify(hint)}`;
  }
  return `{"columns":${JSON.stringify(columns)},"rows":${rowsJson}${tail},"elapsed_ms":${elapsedMs}}`;
}
