/**
 * Small valid PDF, DOCX and XLSX files made in memory for tests and the
 * bench: a PDF written by hand (one Helvetica text line per page line), the
 * two Office formats as the minimal parts of their zip packages.
 */
import { crc32, deflateRawSync, constants as zlibConstants } from 'node:zlib';

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (character) => `\\${character}`)})`;
}

/** A PDF with one page per entry, each line of the entry a line of text on it. */
export function makePdf(pages: readonly (readonly string[])[]): Buffer {
  const objects: string[] = [];
  const pageIds: number[] = [];
  // 1: catalog, 2: page tree, 3: font; then a page and its content stream for each page.
  for (const [index, lines] of pages.entries()) {
    const pageId = 4 + index * 2;
    pageIds.push(pageId);
    const stream = lines.map((line, row) => `BT /F1 12 Tf 72 ${720 - row * 16} Td ${pdfString(line)} Tj ET`).join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  }
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const contentTypesHead =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>';

function relationships(entries: readonly { id: string; type: string; target: string }[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    entries
      .map(
        (entry) =>
          `<Relationship Id="${entry.id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${entry.type}" Target="${entry.target}"/>`,
      )
      .join('') +
    '</Relationships>'
  );
}

/** A zip entry already deflated: how a test makes one far larger inflated than on disk. */
export interface DeflatedEntry {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly size: number;
}

/**
 * `text` repeated `times` times, deflated without holding the whole: one
 * chunk is deflated and flushed to a byte boundary, and copies of it follow
 * each other, as a zip bomb is made.
 */
export function repeatedDeflatedEntry(text: string, times: number): DeflatedEntry {
  const chunk = Buffer.from(text);
  const block = deflateRawSync(chunk, { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  let crc = 0;
  for (let index = 0; index < times; index++) crc = crc32(chunk, crc);
  return { deflated: Buffer.concat([...Array(times).fill(block), end]), crc, size: chunk.byteLength * times };
}

/**
 * A zip of deflated entries. Written here rather than by a zip library
 * because a test needs entries deflated beforehand (see repeatedDeflatedEntry).
 */
function zip(files: Record<string, string | Uint8Array | DeflatedEntry>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const entry: DeflatedEntry =
      typeof data === 'string' || data instanceof Uint8Array
        ? { deflated: deflateRawSync(data), crc: crc32(data), size: Buffer.byteLength(data) }
        : data;
    const fileName = Buffer.from(name);
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0); // version needed
    fields.writeUInt16LE(0x0800, 2); // UTF-8 names
    fields.writeUInt16LE(8, 4); // deflate
    fields.writeUInt32LE(0x00210000, 6); // 1980-01-01 00:00
    fields.writeUInt32LE(entry.crc >>> 0, 10);
    fields.writeUInt32LE(entry.deflated.byteLength, 14);
    fields.writeUInt32LE(entry.size, 18);
    fields.writeUInt16LE(fileName.byteLength, 22);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), fields, fileName, entry.deflated]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    fields.copy(central, 6, 0, 26);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, fileName);
    locals.push(local);
    offset += local.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A DOCX whose body is the given paragraphs; `documentXml` replaces the body's whole document part. */
export function makeDocx(paragraphs: readonly string[], documentXml?: string | DeflatedEntry): Buffer {
  const body = paragraphs.map(
    (paragraph) => `<w:p><w:r><w:t xml:space="preserve">${xmlText(paragraph)}</w:t></w:r></w:p>`,
  );
  return zip({
    '[Content_Types].xml': `${contentTypesHead}<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'word/document.xml' }]),
    'word/document.xml':
      documentXml ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body.join('')}</w:body></w:document>`,
  });
}

type Cell = string | number;

function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

function sheetXml(rows: readonly (readonly Cell[])[]): string {
  const rowXml = rows.map((row, rowIndex) => {
    const cells = row.map((cell, columnIndex) => {
      const reference = `${columnName(columnIndex)}${rowIndex + 1}`;
      return typeof cell === 'number'
        ? `<c r="${reference}"><v>${cell}</v></c>`
        : `<c r="${reference}" t="inlineStr"><is><t>${xmlText(cell)}</t></is></c>`;
    });
    return `<row r="${rowIndex + 1}">${cells.join('')}</row>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<sheetData>${rowXml.join('')}</sheetData></worksheet>`
  );
}

/** An XLSX with the given sheets; `sheetParts` replaces a sheet's XML part by its index (from 0). */
export function makeXlsx(
  sheets: readonly { name: string; rows: readonly (readonly Cell[])[] }[],
  sheetParts: Record<number, string | DeflatedEntry> = {},
): Buffer {
  const files: Record<string, string | DeflatedEntry> = {
    '[Content_Types].xml':
      contentTypesHead +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheets
        .map(
          (_, index) =>
            `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '</Types>',
    '_rels/.rels': relationships([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]),
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
      sheets
        .map((sheet, index) => `<sheet name="${xmlText(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
        .join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels': relationships(
      sheets.map((_, index) => ({
        id: `rId${index + 1}`,
        type: 'worksheet',
        target: `worksheets/sheet${index + 1}.xml`,
      })),
    ),
  };
  for (const [index, sheet] of sheets.entries()) {
    files[`xl/worksheets/sheet${index + 1}.xml`] = sheetParts[index] ?? sheetXml(sheet.rows);
  }
  return zip(files);
}
