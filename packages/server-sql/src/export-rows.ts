import { type RowEncoder, rowEncoder } from './export-encoding.ts';
import { QueryFailure } from './query-failure.ts';
import type { ExportFormat, ExportLimits } from './query-messages.ts';
import type { ResultColumn } from './sql-rows.ts';

/** A BLOB in the rows the answer shows: its base64 only within the blob cap, as a query's result has it. */
function shownValue(value: unknown, maxBlobBytes: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const blob = value as { type?: unknown; bytes?: unknown; base64?: unknown };
  if (blob.type === 'blob' && typeof blob.bytes === 'number' && blob.bytes > maxBlobBytes) {
    return { type: 'blob', bytes: blob.bytes, base64: null };
  }
  return value;
}

/**
 * An export's rows as they are written, the same on every engine: each row
 * encoded, counted against the export's caps (a row past either one stops
 * the export with a `export_cap` failure, so no file is kept), and the
 * first few kept for the answer.
 */
export class ExportRows {
  readonly #format: ExportFormat;
  readonly #limits: ExportLimits;
  #encoder: RowEncoder | undefined;
  #columns: ResultColumn[] = [];
  #shown: string[] = [];
  #shownBytes = 2;
  /** The rows shown are the first ones, in order: once one does not fit, no later one is shown. */
  #showing = true;
  rowCount = 0;
  bytes = 0;

  constructor(format: ExportFormat, limits: ExportLimits) {
    this.#format = format;
    this.#limits = limits;
  }

  /** Takes the result's columns; returns what the file starts with (CSV's header row). */
  start(columns: readonly ResultColumn[]): string {
    this.#columns = [...columns];
    this.#encoder = rowEncoder(
      this.#format,
      columns.map((column) => column.name),
    );
    return this.#count(this.#encoder.header);
  }

  /** The result's columns, with the types known so far (PostgreSQL learns some only after the rows). */
  set columns(columns: readonly ResultColumn[]) {
    this.#columns = [...columns];
  }

  /** One row, encoded for the file; throws an `export_cap` failure when it would pass a cap. */
  add(values: readonly unknown[]): string {
    if (this.rowCount === this.#limits.maxRows) {
      throw new QueryFailure(
        'export_cap',
        `The result has more than ${this.#limits.maxRows} rows, the export's row cap (--max-export-rows); the export was stopped and no file was written. Export a part at a time (a WHERE clause on a key range), or ask the operator to raise the cap.`,
      );
    }
    if (this.#encoder === undefined) throw new Error('ExportRows.start() must come before the rows');
    const line = this.#count(this.#encoder.row(values));
    this.rowCount++;
    if (this.#showing && this.#shown.length < this.#limits.previewRows) {
      const shown = JSON.stringify(values.map((value) => shownValue(value, this.#limits.previewBlobBytes)));
      const size = Buffer.byteLength(shown) + 1;
      this.#showing = this.#shownBytes + size <= this.#limits.previewBytes;
      if (this.#showing) {
        this.#shown.push(shown);
        this.#shownBytes += size;
      }
    }
    return line;
  }

  /** What the engine answers, as JSON: the columns, what was written, and the first rows. */
  resultJson(elapsedMs: number): string {
    const elapsed = Math.round(elapsedMs * 1000) / 1000;
    return `{"columns":${JSON.stringify(this.#columns)},"row_count":${this.rowCount},"bytes":${this.bytes},"first_rows":[${this.#shown.join(',')}],"elapsed_ms":${elapsed}}`;
  }

  #count(text: string): string {
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.#limits.maxBytes) {
      throw new QueryFailure(
        'export_cap',
        `The export would be larger than ${this.#limits.maxBytes} bytes, the export's byte cap (--max-export-bytes); it was stopped after ${this.rowCount} rows and no file was written. Select fewer columns, export a part at a time (a WHERE clause on a key range), or ask the operator to raise the cap.`,
      );
    }
    this.bytes += size;
    return text;
  }
}
