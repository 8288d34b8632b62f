import type { DocumentPart, DocumentText, DocumentTextRequest } from './document-text.ts';
import { documentRangeError, partRange } from './document-text.ts';

type CellValue = string | number | boolean | Date | null | undefined;

/** A cell as text on one line: dates in ISO form (the day alone at midnight), tabs and line breaks as spaces. */
function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(value).replace(/[\t\r\n]+/g, ' ');
}

/**
 * An XLSX's sheets with read-excel-file: each row a line of tab-separated
 * cells (the values the spreadsheet stored, formulas as their last result).
 */
export async function xlsxText(request: DocumentTextRequest): Promise<DocumentText> {
  const { default: readXlsxFile } = await import('read-excel-file/node');
  const sheets = (await readXlsxFile(
    Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
  )) as { sheet: string; data: CellValue[][] }[];
  const names = sheets.map((sheet) => sheet.sheet);
  let range = partRange(request, sheets.length);
  if (request.sheet !== undefined) {
    const index = names.indexOf(request.sheet);
    if (index === -1) {
      throw documentRangeError(
        `it has no sheet named "${request.sheet}"; its sheets are ${names.map((name) => `"${name}"`).join(', ')}`,
      );
    }
    range = { first: index + 1, last: index + 1 };
  }
  const parts: DocumentPart[] = [];
  let characters = 0;
  for (let number = range.first; number <= range.last && characters <= request.maxCharacters; number++) {
    const sheet = sheets[number - 1];
    if (sheet === undefined) break;
    const text = sheet.data.map((row) => row.map(cellText).join('\t').trimEnd()).join('\n');
    parts.push({ number, name: sheet.sheet, text });
    characters += text.length;
  }
  return { total: sheets.length, parts, sheets: names };
}
