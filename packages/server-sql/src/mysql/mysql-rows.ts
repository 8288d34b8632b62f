import type { RowLimits } from '../query-messages.ts';
import { queryResultJson, type ResultColumn, type TruncatedBy } from '../sql-rows.ts';
import { type MysqlColumn, mysqlTypeName, type ValueConverter, valueConverter } from './mysql-values.ts';

/**
 * Rows of one result as they arrive, kept within the row and byte caps, and
 * written out as the `query` tool's JSON: the same shape and hints as SQLite's
 * (sql-rows.ts).
 */
export class MysqlRowCollector {
  private readonly limits: RowLimits;
  private columns: ResultColumn[] = [];
  private converters: ValueConverter[] = [];
  private readonly rows: unknown[][] = [];
  private length = 2;
  truncatedBy: TruncatedBy | undefined;

  constructor(limits: RowLimits) {
    this.limits = limits;
  }

  setColumns(columns: readonly MysqlColumn[]): void {
    this.columns = columns.map((column) => ({ name: column.name, type: mysqlTypeName(column) }));
    this.converters = columns.map(valueConverter);
  }

  /** Takes one row; false once the caps are reached and the statement should be stopped. */
  add(row: unknown[]): boolean {
    if (this.truncatedBy !== undefined) return false;
    // The row past max_rows is fetched only to know that the result was cut.
    if (this.rows.length === this.limits.maxRows) {
      this.truncatedBy = 'max_rows';
      return false;
    }
    let length = 2;
    for (let index = 0; index < row.length; index++) {
      const value = (this.converters[index] as ValueConverter)(row[index], this.limits.maxBlobBytes);
      row[index] = value;
      if (typeof value === 'string') length += value.length + 3;
      else if (value !== null && typeof value === 'object') length += JSON.stringify(value).length + 1;
      else length += 5;
    }
    this.length += length;
    if (this.length > this.limits.maxBytes) {
      this.truncatedBy = 'max_bytes';
      return false;
    }
    this.rows.push(row);
    return true;
  }

  /** The result as JSON text; rows are cut from the end until the exact encoding fits the byte cap. */
  toJson(elapsedMs: number): string {
    const { rows, limits } = this;
    const encoded = rows.map((row) => JSON.stringify(row));
    let total = 2;
    let kept = 0;
    for (const text of encoded) {
      const size = Buffer.byteLength(text) + 1;
      if (total + size > limits.maxBytes) {
        this.truncatedBy = 'max_bytes';
        break;
      }
      total += size;
      kept++;
    }
    const rowsJson = `[${encoded.slice(0, kept).join(',')}]`;
    const elapsed = Math.round(elapsedMs * 1000) / 1000;
    return queryResultJson(this.columns, rowsJson, kept, this.truncatedBy, limits, elapsed, 'SUBSTRING');
  }
}
