/**
 * Extracts a document's text off the main thread: a PDF or zip bomb, or a
 * parser that loops, holds only this worker, which the server terminates at
 * the time limit or which dies at its memory limit. The parsers are imported
 * when the first document of their format arrives, never at server start.
 */
import { parentPort } from 'node:worker_threads';
import { type DocumentText, type DocumentTextRequest, documentRangeErrorName } from './document-text.ts';
import { docxText } from './docx-text.ts';
import { pdfText } from './pdf-text.ts';
import { xlsxText } from './xlsx-text.ts';

const readers: { [Format in DocumentTextRequest['format']]: (request: DocumentTextRequest) => Promise<DocumentText> } =
  {
    pdf: pdfText,
    docx: docxText,
    xlsx: xlsxText,
  };

/** The answer to one request: the text, or why there is none. */
export type DocumentWorkerAnswer = { ready: true } | { text: DocumentText } | { error: string; range: boolean };

parentPort?.once('message', async (request: DocumentTextRequest) => {
  let answer: DocumentWorkerAnswer;
  try {
    answer = { text: await readers[request.format](request) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    answer = { error: message, range: name === documentRangeErrorName };
  }
  parentPort?.postMessage(answer);
});

// The server starts its time limit from here, so starting a thread is not counted against the document.
parentPort?.postMessage({ ready: true } satisfies DocumentWorkerAnswer);
