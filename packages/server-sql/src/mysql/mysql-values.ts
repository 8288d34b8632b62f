/**
 * MySQL and MariaDB values as JSON a model can use without losing anything:
 * the same shapes the SQLite side returns (numbers, strings, null, BLOBs as
 * `{type:"blob", bytes, base64}`), plus the types SQLite does not have.
 */

/** What the values need to know of a result column (a subset of mysql2's column definition). */
export interface MysqlColumn {
  name: string;
  columnType: number;
  flags: number;
  characterSet: number;
  /** MariaDB's extended metadata: `json` for JSON columns, which arrive as LONGTEXT. */
  extendedFormat?: string | undefined;
  extendedTypeName?: string | undefined;
}

/** The wire type codes (include/mysql_com.h, enum_field_types). */
const wireType = {
  decimal: 0,
  tiny: 1,
  short: 2,
  long: 3,
  float: 4,
  double: 5,
  null: 6,
  timestamp: 7,
  longLong: 8,
  int24: 9,
  date: 10,
  time: 11,
  dateTime: 12,
  year: 13,
  newDate: 14,
  varchar: 15,
  bit: 16,
  json: 245,
  newDecimal: 246,
  enum: 247,
  set: 248,
  tinyBlob: 249,
  mediumBlob: 250,
  longBlob: 251,
  blob: 252,
  varString: 253,
  string: 254,
  geometry: 255,
} as const;

const unsignedFlag = 32;
const enumFlag = 256;
const setFlag = 2048;
const binaryCharacterSet = 63;

const typeNames = new Map<number, string>([
  [wireType.decimal, 'DECIMAL'],
  [wireType.tiny, 'TINYINT'],
  [wireType.short, 'SMALLINT'],
  [wireType.long, 'INT'],
  [wireType.float, 'FLOAT'],
  [wireType.double, 'DOUBLE'],
  [wireType.null, 'NULL'],
  [wireType.timestamp, 'TIMESTAMP'],
  [wireType.longLong, 'BIGINT'],
  [wireType.int24, 'MEDIUMINT'],
  [wireType.date, 'DATE'],
  [wireType.time, 'TIME'],
  [wireType.dateTime, 'DATETIME'],
  [wireType.year, 'YEAR'],
  [wireType.newDate, 'DATE'],
  [wireType.bit, 'BIT'],
  [wireType.json, 'JSON'],
  [wireType.newDecimal, 'DECIMAL'],
  [wireType.enum, 'ENUM'],
  [wireType.set, 'SET'],
  [wireType.geometry, 'GEOMETRY'],
]);

function isJson(column: MysqlColumn): boolean {
  return column.columnType === wireType.json || column.extendedFormat === 'json';
}

/** The column's SQL type name as the server describes it on the wire. */
export function mysqlTypeName(column: MysqlColumn): string {
  if (isJson(column)) return 'JSON';
  if (column.extendedTypeName) return column.extendedTypeName.toUpperCase();
  const binary = column.characterSet === binaryCharacterSet;
  let name: string;
  if (column.flags & enumFlag) name = 'ENUM';
  else if (column.flags & setFlag) name = 'SET';
  else if (column.columnType >= wireType.tinyBlob && column.columnType <= wireType.blob)
    name = binary ? 'BLOB' : 'TEXT';
  else if (column.columnType === wireType.varString || column.columnType === wireType.varchar) {
    name = binary ? 'VARBINARY' : 'VARCHAR';
  } else if (column.columnType === wireType.string) name = binary ? 'BINARY' : 'CHAR';
  else name = typeNames.get(column.columnType) ?? `TYPE ${column.columnType}`;
  return column.flags & unsignedFlag && /INT|DECIMAL|FLOAT|DOUBLE/.test(name) ? `${name} UNSIGNED` : name;
}

/** A BLOB as JSON: base64 with its length, or only its length past the cap (as on SQLite). */
function blobValue(bytes: Buffer, maxBlobBytes: number): { type: 'blob'; bytes: number; base64: string | null } {
  return { type: 'blob', bytes: bytes.length, base64: bytes.length <= maxBlobBytes ? bytes.toString('base64') : null };
}

/** An integer as a number when a double holds it exactly, else as its decimal digits. */
function integerValue(text: string | number): number | string {
  if (typeof text === 'number') return text;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

function canonicalDecimal(text: string): string {
  let [whole = '', fraction = ''] = text.replace(/^\+/, '').split('.');
  const negative = whole.startsWith('-');
  whole = whole.replace(/^-/, '').replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const digits = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** A DECIMAL as a number when a double gives back exactly its digits, else as a string. */
export function decimalValue(text: string): number | string {
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  const shortest = String(value);
  return !/e/i.test(shortest) && shortest === canonicalDecimal(text) ? value : text;
}

/** A FLOAT column's single-precision value with the fewest digits that still read back as it. */
function floatValue(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

function bitValue(bytes: Buffer): number | string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

function jsonValue(text: string | Buffer): unknown {
  const source = typeof text === 'string' ? text : text.toString('utf8');
  try {
    return JSON.parse(source);
  } catch {
    return source;
  }
}

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` as ISO 8601; the zero date MySQL allows stays as the server wrote it. */
function dateTimeValue(text: string, offset: string): string {
  return text.startsWith('0000-00-00') ? text : `${text.replace(' ', 'T')}${offset}`;
}

export type ValueConverter = (value: unknown, maxBlobBytes: number) => unknown;

const asIs: ValueConverter = (value, maxBlobBytes) => (Buffer.isBuffer(value) ? blobValue(value, maxBlobBytes) : value);

/**
 * How each value of a column becomes JSON. Sessions run with
 * `time_zone = '+00:00'`, so a TIMESTAMP (an instant) is written with its offset, +00:00; a
 * DATETIME is a wall-clock time without a zone and is written without one.
 */
export function valueConverter(column: MysqlColumn): ValueConverter {
  if (isJson(column)) return (value) => (value === null ? null : jsonValue(value as string));
  if (column.flags & setFlag) {
    return (value) => (value === null ? null : value === '' ? [] : String(value).split(','));
  }
  switch (column.columnType) {
    case wireType.longLong:
      return (value) => (value === null ? null : integerValue(value as string));
    case wireType.decimal:
    case wireType.newDecimal:
      return (value) => (value === null ? null : decimalValue(String(value)));
    case wireType.float:
      return (value) => (typeof value === 'number' ? floatValue(value) : value);
    case wireType.timestamp:
      return (value) => (value === null ? null : dateTimeValue(String(value), '+00:00'));
    case wireType.dateTime:
      return (value) => (value === null ? null : dateTimeValue(String(value), ''));
    case wireType.bit:
      return (value) => (Buffer.isBuffer(value) ? bitValue(value) : value);
    default:
      return asIs;
  }
}
