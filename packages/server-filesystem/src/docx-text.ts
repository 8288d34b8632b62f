import type { DocumentPart, DocumentText, DocumentTextRequest } from './document-text.ts';
import { partRange } from './document-text.ts';

/**
 * Characters in one part of a DOCX. A DOCX has no pages until a word
 * processor lays it out, so its text is numbered in parts of about this
 * length, split between paragraphs, to be read in ranges like a PDF's pages.
 */
export const docxPartCharacters = 10_000;

/** Paragraphs gathered into parts of at most `docxPartCharacters` (a longer paragraph is a part of its own). */
export function splitIntoParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n{2,}/)) {
    const trimmed = paragraph.trim();
    if (trimmed === '') continue;
    if (current !== '' && current.length + trimmed.length + 2 > docxPartCharacters) {
      parts.push(current);
      current = '';
    }
    current = current === '' ? trimmed : `${current}\n\n${trimmed}`;
  }
  if (current !== '' || parts.length === 0) parts.push(current);
  return parts;
}

/** A DOCX's text with mammoth: paragraphs as lines, a blank line between them, in parts. */
export async function docxText(request: DocumentTextRequest): Promise<DocumentText> {
  const { default: mammoth } = await import('mammoth');
  const { value } = await mammoth.extractRawText({
    buffer: Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
  });
  const all = splitIntoParts(value);
  const { first, last } = partRange(request, all.length);
  const parts: DocumentPart[] = [];
  let characters = 0;
  for (let number = first; number <= last && characters <= request.maxCharacters; number++) {
    const text = all[number - 1] ?? '';
    parts.push({ number, text });
    characters += text.length;
  }
  return { total: all.length, parts };
}
