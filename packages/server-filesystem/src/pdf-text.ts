import type { DocumentPart, DocumentProgress, DocumentText, DocumentTextRequest } from './document-text.ts';
import { partRange } from './document-text.ts';

interface PdfTextItem {
  str?: string;
  hasEOL?: boolean;
}

/**
 * A PDF's text, page by page, with pdf.js (as unpdf packages it for servers:
 * no canvas, no worker of its own). Lines follow the text items' end-of-line
 * marks; only the pages asked for are parsed.
 */
export async function pdfText(request: DocumentTextRequest, progress?: DocumentProgress): Promise<DocumentText> {
  const { getDocumentProxy } = await import('unpdf');
  const document = await getDocumentProxy(request.bytes, { verbosity: 0, stopAtErrors: false });
  const { first, last } = partRange(request, document.numPages);
  const parts: DocumentPart[] = [];
  let characters = 0;
  for (let number = first; number <= last && characters <= request.maxCharacters; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items as PdfTextItem[]) {
      text += item.str ?? '';
      if (item.hasEOL === true) text += '\n';
    }
    page.cleanup();
    parts.push({ number, text: text.trimEnd() });
    characters += text.length;
    progress?.(number - first + 1, last - first + 1);
  }
  return { total: document.numPages, parts };
}
