import type { ExportFormat } from './query-messages.ts';

/**
 * How export_query writes rows. Values come in as a query's result holds
 * them (numbers, strings, booleans, null, `{type: "blob", …}` objects, JSON
 * values), so every engine's export reads the same.
 *
 * CSV follows RFC 4180: a header row of the column names, CRLF after every
 * row, a field with a comma, a double quote, CR or LF in double quotes with
 * its quotes doubled. NULL is an empty field and the empty string `""`, as
 * PostgreSQL's CSV tells them apart. A BLOB is its base64, any other JSON
 * value (json columns, arrays, MySQL SETs) its JSON text.
 *
 * JSONL is one JSON object per row, keys in column order; a name that
 * repeats (`SELECT a.id, b.id`) is written `id`, then `id_2`, `id_3`.
 */
export interface RowEncoder {
  /** What comes before the first row: CSV's header row; nothing for JSONL. */
  readonly header: string;
  row(values: readonly unknown[]): string;
}

interface BlobValue {
  type: 'blob';
  base64: string | null;
}

function isBlob(value: object): value is BlobValue {
  return (value as { type?: unknown }).type === 'blob' && 'base64' in value && 'bytes' in value;
}

const needsQuotes = /[",\r\n]/;

/** A text as a CSV field: quoted when it must be, and the empty string as `""` (an empty field is NULL). */
export function csvText(text: string): string {
  if (text === '') return '""';
  if (!needsQuotes.test(text)) return text;
  return text.includes('"') ? `"${text.replaceAll('"', '""')}"` : `"${text}"`;
}

/** A value, as a query's result holds it, as a CSV field. */
export function csvField(value: unknown): string {
  // Strings and numbers first: nearly every field is one.
  if (typeof value === 'string') return csvText(value);
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return isBlob(value) ? (value.base64 ?? '') : csvText(JSON.stringify(value));
  return String(value);
}

/** Column names as JSON object keys: each repeat gets the next free `_2`, `_3`… */
function distinctKeys(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let number = 2; taken.has(key); number++) key = `${name}_${number}`;
    taken.add(key);
    return key;
  });
}

export function rowEncoder(format: ExportFormat, columnNames: readonly string[]): RowEncoder {
  if (format === 'csv') {
    return {
      header: columnNames.length === 0 ? '' : `${columnNames.map((name) => csvField(name)).join(',')}\r\n`,
      row: (values) => {
        let line = '';
        for (let index = 0; index < values.length; index++) {
          if (index > 0) line += ',';
          line += csvField(values[index]);
        }
        return `${line}\r\n`;
      },
    };
  }
  // `"name":` written once per column, not once per row; keys keep column order even when they look like numbers.
  const prefixes = distinctKeys(columnNames).map((key, index) => `${index === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  return {
    header: '',
    row: (values) => {
      if (values.length === 0) return '{}\n';
      let line = '';
      for (let index = 0; index < values.length; index++) {
        line += prefixes[index] ?? `,${JSON.stringify(String(index))}:`;
        line += JSON.stringify(values[index] ?? null);
      }
      return `${line}}\n`;
    },
  };
}
