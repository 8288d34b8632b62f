import { extname } from 'node:path';
import type { DocumentFormat } from './document-text.ts';

const byExtension: Record<string, DocumentFormat> = { '.pdf': 'pdf', '.docx': 'docx', '.xlsx': 'xlsx' };

/** The document format a file name says, if it names one read_document reads. */
export function documentFormatOf(path: string): DocumentFormat | undefined {
  return byExtension[extname(path).toLowerCase()];
}

const zipSignature = Buffer.from('PK\u0003\u0004', 'latin1');
const pdfSignature = Buffer.from('%PDF-', 'latin1');

/**
 * Whether the first bytes are those of the format: `%PDF-` near the start (as
 * readers accept it, after up to 1 KiB of junk) or a zip's local header.
 */
export function hasDocumentSignature(format: DocumentFormat, head: Uint8Array): boolean {
  const bytes = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 1024));
  return format === 'pdf' ? bytes.indexOf(pdfSignature) !== -1 : bytes.subarray(0, 4).equals(zipSignature);
}
