import { closeSync, fdatasyncSync, fstatSync, openSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { checkExportTarget, exportWriteFailure, exportWriteFlags } from './export-output.ts';
import { ExportRows } from './export-rows.ts';
import type { ExportRequest } from './query-messages.ts';
import { toBoundValues } from './sql-rows.ts';

/** Text gathered up to this many characters goes out in one write. */
const chunkCharacters = 1024 * 1024;

/** A SQLite value as a query's result holds it, BLOBs whole: the export's byte cap bounds them. */
function exportValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value.toString();
    case 'number':
      // JSON has no infinities; SQLite REALs can hold them (1e999).
      return value === Infinity || value === -Infinity ? String(value) : value;
    case 'object':
      if (value === null) return null;
      return {
        type: 'blob',
        bytes: (value as Uint8Array).length,
        base64: Buffer.from(
          (value as Uint8Array).buffer,
          (value as Uint8Array).byteOffset,
          (value as Uint8Array).length,
        ).toString('base64'),
      };
    default:
      return value;
  }
}

function writeAll(fd: number, text: string): void {
  if (text === '') return;
  const buffer = Buffer.from(text);
  try {
    for (let offset = 0; offset < buffer.length; ) offset += writeSync(fd, buffer, offset);
  } catch (error) {
    throw exportWriteFailure(error);
  }
}

/**
 * Runs a reader statement and writes its whole result into the export's
 * temporary file, in the query process: rows are read one at a time and
 * written a megabyte at a time, so memory stays flat whatever the result's
 * size. The server stops it by killing the process (its time limit,
 * cancellation), then removes the file. Returns what was written, as JSON.
 */
export function exportSqliteRows(statement: Database.Statement, request: ExportRequest): string {
  const started = performance.now();
  const rows = new ExportRows(request.format, request.limits);
  let fd: number;
  try {
    fd = openSync(request.file.path, exportWriteFlags);
  } catch (error) {
    throw exportWriteFailure(error);
  }
  try {
    checkExportTarget(fstatSync(fd, { bigint: true }), request.file);
    let chunk = rows.start(statement.columns().map((column) => ({ name: column.name, type: column.type })));
    statement.raw(true);
    // Exact integers always: a file is read by programs that keep all 64 bits.
    statement.safeIntegers(true);
    const bound = toBoundValues(request.params);
    const iterator = (bound === undefined ? statement.iterate() : statement.iterate(bound)) as IterableIterator<
      unknown[]
    >;
    for (const row of iterator) {
      for (let index = 0; index < row.length; index++) row[index] = exportValue(row[index]);
      chunk += rows.add(row);
      if (chunk.length >= chunkCharacters) {
        writeAll(fd, chunk);
        chunk = '';
      }
    }
    writeAll(fd, chunk);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return rows.resultJson(performance.now() - started);
}
