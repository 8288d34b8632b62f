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
 * encoded and counted against the row cap, the bytes counted against the
 * byte cap as the writer turns text into bytes (a megabyte or so at a time,
 * which costs a fraction of counting each row), and the first few rows kept
 * for the answer. Passing either cap throws an `export_cap` failure, which
 * stops the export; no file is kept.
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
    return this.#encoder.header;
  }

  /** The result's columns, with the types known so far (PostgreSQL learns some only after the rows). */
  set columns(columns: readonly ResultColumn[]) {
    this.#columns = [...columns];
  }

  /** One row, encoded for the file; throws an `export_cap` failure past the row cap. */
  add(values: readonly unknown[]): string {
    this.#checkRowCap();
    if (this.#encoder === undefined) throw new Error('ExportRows.start() must come before the rows');
    const line = this.#encoder.row(values);
    this.rowCount++;
    if (this.rowCount <= this.#limits.previewRows && this.#showing) this.#show(values);
    return line;
  }

  #checkRowCap(): void {
    if (this.rowCount === this.#limits.maxRows) {
      throw new QueryFailure(
        'export_cap',
        `The result has more than ${this.#limits.maxRows} rows, the export's row cap (--max-export-rows); the export was stopped and no file was written. Export a part at a time (a WHERE clause on a key range), or ask the operator to raise the cap.`,
      );
    }
  }

  #show(values: readonly unknown[]): void {
    const shown = JSON.stringify(values.map((value) => shownValue(value, this.#limits.previewBlobBytes)));
    const size = Buffer.byteLength(shown) + 1;
    this.#showing = this.#shownBytes + size <= this.#limits.previewBytes;
    if (this.#showing) {
      this.#shown.push(shown);
      this.#shownBytes += size;
    }
  }

  /** Whether the next row is one the answer shows: then `addEncoded` needs its values. */
  get showsNext(): boolean {
    return this.rowCount < this.#limits.previewRows && this.#showing;
  }

  /**
   * One row the engine encoded itself (PostgreSQL's CSV, from the text the
   * server sent), with its values as a query's result would hold them when
   * it is one the answer shows (`showsNext`). Throws an `export_cap` failure
   * past the row cap.
   */
  addEncoded(line: string, values?: readonly unknown[]): string {
    this.#checkRowCap();
    this.rowCount++;
    if (values !== undefined && this.#showing) this.#show(values);
    return line;
  }

  /** What the engine answers, as JSON: the columns, what was written, and the first rows. */
  resultJson(elapsedMs: number): string {
    const elapsed = Math.round(elapsedMs * 1000) / 1000;
    return `{"columns":${JSON.stringify(this.#columns)},"row_count":${this.rowCount},"bytes":${this.bytes},"first_rows":[${this.#shown.join(',')}],"elapsed_ms":${elapsed}}`;
  }

  /** Counts bytes about to be written; throws an `export_cap` failure past the byte cap. */
  written(bytes: number): void {
    if (this.bytes + bytes > this.#limits.maxBytes) {
      throw new QueryFailure(
        'export_cap',
        `The export would be larger than ${this.#limits.maxBytes} bytes, the export's byte cap (--max-export-bytes); it was stopped after ${this.rowCount} rows and no file was written. Select fewer columns, export a part at a time (a WHERE clause on a key range), or ask the operator to raise the cap.`,
      );
    }
    this.bytes += bytes;
  }
}
