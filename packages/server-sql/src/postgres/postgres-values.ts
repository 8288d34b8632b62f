import { parse as parseArray } from 'postgres-array';

/**
 * PostgreSQL's text values as JSON a model can use, losing nothing: numbers
 * that fit a double as numbers and the rest as strings, timestamps as ISO
 * 8601 with their offset, json as JSON, arrays as arrays, bytea as a blob
 * with its length. Everything the session is asked to print is set per call
 * (DateStyle ISO, IntervalStyle iso_8601, bytea_output hex), so these
 * parsers see one format.
 */

type Parser = (text: string) => unknown;

/** A bytea as the SQLite side shows a BLOB: its length, and base64 when within the cap. */
export interface BlobValue {
  type: 'blob';
  bytes: number;
  base64: string | null;
}

function integer(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

function float(text: string): number | string {
  const value = Number(text);
  // JSON has no NaN or infinities: they stay words.
  return Number.isFinite(value) ? value : text;
}

/** `00012.500` → `12.5`: the decimal's value written the shortest way, to compare with a double's. */
function canonicalDecimal(text: string): string {
  let [whole = '', fraction = ''] = text.replace(/^([+-]?)/, '').split('.');
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const sign = text.startsWith('-') && /[1-9]/.test(whole + fraction) ? '-' : '';
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A numeric is a JSON number when a double holds it exactly as written, else its digits as a string. */
function decimal(text: string): number | string {
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  const shortest = String(value);
  return !/e/i.test(shortest) && shortest === canonicalDecimal(text) ? value : text;
}

/** `2024-05-01 10:00:00.123456+02` → `2024-05-01T10:00:00.123456+02:00`; infinity stays a word. */
function timestamp(text: string): string {
  const match = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)?(?::?(\d\d))?(?::?(\d\d))?( BC)?$/.exec(text);
  if (match === null) return text;
  const [, date, time, hours, minutes, seconds, era] = match;
  const offset = hours === undefined ? '' : `${hours}:${minutes ?? '00'}${seconds === undefined ? '' : `:${seconds}`}`;
  return `${date}T${time}${offset}${era ?? ''}`;
}

export function blobValue(bytes: Buffer, maxBlobBytes: number): BlobValue {
  return { type: 'blob', bytes: bytes.length, base64: bytes.length <= maxBlobBytes ? bytes.toString('base64') : null };
}

function bytea(maxBlobBytes: number): Parser {
  return (text) => blobValue(Buffer.from(text.startsWith('\\x') ? text.slice(2) : '', 'hex'), maxBlobBytes);
}

const json: Parser = (text) => JSON.parse(text);
const boolean: Parser = (text) => text === 't' || text === 'true';
const asText: Parser = (text) => text;

/** Element type OIDs by scalar OID, and their parsers. */
function scalarParsers(maxBlobBytes: number): Map<number, Parser> {
  return new Map<number, Parser>([
    [16, boolean],
    [17, bytea(maxBlobBytes)],
    [20, integer],
    [21, integer],
    [23, integer],
    [26, integer],
    [700, float],
    [701, float],
    [1700, decimal],
    [114, json],
    [3802, json],
    [1114, timestamp],
    [1184, timestamp],
  ]);
}

/** Array type OID → its element type OID, for the arrays whose elements are not text. */
const arrayElements = new Map<number, number>([
  [1000, 16],
  [1001, 17],
  [1016, 20],
  [1005, 21],
  [1007, 23],
  [1028, 26],
  [1021, 700],
  [1022, 701],
  [1231, 1700],
  [199, 114],
  [3807, 3802],
  [1115, 1114],
  [1185, 1184],
]);

/** Text-like arrays: their elements stay strings. */
const textArrays = new Set([1009, 1015, 1014, 1182, 1183, 1270, 1187, 2951, 1041, 651, 1040]);

/**
 * The type parsers for one server's limits, as `pg` takes them: every OID
 * not named here stays the text PostgreSQL sent (dates, times, intervals,
 * uuid, inet, money, enums…), which is already what a model can read.
 */
export function postgresTypeParsers(maxBlobBytes: number): TypeParsers {
  let parsers = parsersByBlobCap.get(maxBlobBytes);
  if (parsers === undefined) {
    parsers = typeParsers(maxBlobBytes);
    parsersByBlobCap.set(maxBlobBytes, parsers);
  }
  return parsers;
}

type TypeParsers = { getTypeParser: (oid: number) => Parser };

/** Made once per blob cap (one per server, in practice), not per call. */
const parsersByBlobCap = new Map<number, TypeParsers>();

function typeParsers(maxBlobBytes: number): TypeParsers {
  const scalars = scalarParsers(maxBlobBytes);
  const arrays = new Map<number, Parser>();
  for (const [arrayOid, elementOid] of arrayElements) {
    const element = scalars.get(elementOid) as Parser;
    arrays.set(arrayOid, (text) => parseArray(text, element));
  }
  for (const arrayOid of textArrays) arrays.set(arrayOid, (text) => parseArray(text, asText));
  return { getTypeParser: (oid) => scalars.get(oid) ?? arrays.get(oid) ?? asText };
}

/** Type names of the common OIDs, so that most results need no look-up in pg_type. */
export const knownTypeNames: ReadonlyMap<number, string> = new Map([
  [16, 'boolean'],
  [17, 'bytea'],
  [18, 'char'],
  [19, 'name'],
  [20, 'bigint'],
  [21, 'smallint'],
  [23, 'integer'],
  [25, 'text'],
  [26, 'oid'],
  [114, 'json'],
  [700, 'real'],
  [701, 'double precision'],
  [1042, 'character'],
  [1043, 'character varying'],
  [1082, 'date'],
  [1083, 'time without time zone'],
  [1114, 'timestamp without time zone'],
  [1184, 'timestamp with time zone'],
  [1186, 'interval'],
  [1266, 'time with time zone'],
  [1700, 'numeric'],
  [2950, 'uuid'],
  [3802, 'jsonb'],
  [869, 'inet'],
  [650, 'cidr'],
  [790, 'money'],
  [1000, 'boolean[]'],
  [1005, 'smallint[]'],
  [1007, 'integer[]'],
  [1009, 'text[]'],
  [1016, 'bigint[]'],
  [1022, 'double precision[]'],
  [1231, 'numeric[]'],
  [2951, 'uuid[]'],
  [3807, 'jsonb[]'],
]);
