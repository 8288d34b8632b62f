import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { checkExportTarget, exportWriteFailure, exportWriteFlags } from './export-output.ts';
import { ExportRows } from './export-rows.ts';
import type { ExportRequest } from './query-messages.ts';
import { toBoundValues } from './sql-rows.ts';

/** Text gathered up to this many characters goes out in one write. */
const chunkCharacters = 1024 * 1024;

/** An integer outside ±2^53 came as an inexact number: the export starts again with exact integers. */
class NeedsExactIntegers extends Error {}

/**
 * A SQLite value as a query's result holds it, BLOBs whole: the export's
 * byte cap bounds them. Read with exact integers, every number is a REAL.
 */
function exportValue(value: unknown, exact: boolean): unknown {
  switch (typeof value) {
    case 'number':
      // JSON has no infinities; SQLite REALs can hold them (1e999).
      if (!Number.isFinite(value)) return String(value);
      // Beyond ±2^53 a number may be an INTEGER that lost digits (or a REAL): read again, exactly.
      if (!exact && Number.isInteger(value) && !Number.isSafeInteger(value)) throw new NeedsExactIntegers();
      return value;
    case 'bigint':
      return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value.toString();
    case 'object': {
      if (value === null) return null;
      const bytes = value as Uint8Array;
      return {
        type: 'blob',
        bytes: bytes.length,
        base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64'),
      };
    }
    default:
      return value;
  }
}

/** The export's file, written from the start: a restart with exact integers writes it again. */
class ExportFile {
  readonly #fd: number;
  #position = 0;

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Writes text, counted first against the byte cap (which throws past it). */
  write(text: string, rows: ExportRows): void {
    if (text === '') return;
    const buffer = Buffer.from(text);
    rows.written(buffer.length);
    try {
      for (let offset = 0; offset < buffer.length; ) {
        const written = writeSync(this.#fd, buffer, offset, buffer.length - offset, this.#position);
        offset += written;
        this.#position += written;
      }
    } catch (error) {
      throw exportWriteFailure(error);
    }
  }

  restart(): void {
    ftruncateSync(this.#fd, 0);
    this.#position = 0;
  }
}

/** One pass over the statement's rows into the file; throws NeedsExactIntegers to be run again with them. */
function writeRows(statement: Database.Statement, request: ExportRequest, file: ExportFile, exact: boolean) {
  const rows = new ExportRows(request.format, request.limits);
  let chunk = rows.start(statement.columns().map((column) => ({ name: column.name, type: column.type })));
  statement.raw(true);
  statement.safeIntegers(exact);
  const bound = toBoundValues(request.params);
  const iterator = (bound === undefined ? statement.iterate() : statement.iterate(bound)) as IterableIterator<
    unknown[]
  >;
  for (const row of iterator) {
    for (let index = 0; index < row.length; index++) {
      const value = row[index];
      // Strings, NULLs and ordinary numbers go as they are; the rest is converted.
      if (typeof value !== 'string' && value !== null && !(typeof value === 'number' && Number.isSafeInteger(value))) {
        row[index] = exportValue(value, exact);
      }
    }
    chunk += rows.add(row);
    if (chunk.length >= chunkCharacters) {
      file.write(chunk, rows);
      chunk = '';
    }
  }
  file.write(chunk, rows);
  return rows;
}

/**
 * Runs a reader statement and writes its whole result into the export's
 * temporary file, in the query process: rows are read one at a time and
 * written a megabyte at a time, so memory stays flat whatever the result's
 * size. Integers are read as numbers (an exact integer for each would cost
 * a BigInt a value); should one lie beyond ±2^53, the export starts again
 * with exact integers, as a query does. The server stops it by killing the
 * process (its time limit, cancellation), then removes the file. Returns
 * what was written, as JSON.
 */
export function exportSqliteRows(statement: Database.Statement, request: ExportRequest): string {
  const started = performance.now();
  let fd: number;
  try {
    fd = openSync(request.file.path, exportWriteFlags);
  } catch (error) {
    throw exportWriteFailure(error);
  }
  try {
    checkExportTarget(fstatSync(fd, { bigint: true }), request.file);
    const file = new ExportFile(fd);
    let rows: ExportRows;
    try {
      rows = writeRows(statement, request, file, false);
    } catch (error) {
      if (!(error instanceof NeedsExactIntegers)) throw error;
      file.restart();
      rows = writeRows(statement, request, file, true);
    }
    fdatasyncSync(fd);
    return rows.resultJson(performance.now() - started);
  } finally {
    closeSync(fd);
  }
}
