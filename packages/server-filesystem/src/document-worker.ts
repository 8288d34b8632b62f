/**
 * Extracts a document's text off the main thread: a PDF or zip bomb, or a
 * parser that loops, holds only this worker, which the server terminates at
 * the time limit or which dies at its memory limit. The parsers are imported
 * when the first document of their format arrives, never at server start.
 */
import { parentPort } from 'node:worker_threads';
import {
  type DocumentProgress,
  type DocumentText,
  type DocumentTextRequest,
  documentRangeErrorName,
} from './document-text.ts';
import { docxText } from './docx-text.ts';
import { pdfText } from './pdf-text.ts';
import { xlsxText } from './xlsx-text.ts';

type DocumentReader = (request: DocumentTextRequest, progress: DocumentProgress) => Promise<DocumentText>;

const readers: { [Format in DocumentTextRequest['format']]: DocumentReader } = {
  pdf: pdfText,
  docx: docxText,
  xlsx: xlsxText,
};

/** What the worker says: that it listens, or the answer to the request of that id (the text, or why there is none). */
export type DocumentWorkerAnswer =
  | { ready: true }
  | { id: number; progress: { done: number; total: number } }
  | { id: number; text: DocumentText }
  | { id: number; error: string; range: boolean };

// One document at a time: the server sends the next only after this one's answer.
parentPort?.on('message', async ({ id, request }: { id: number; request: DocumentTextRequest }) => {
  let answer: DocumentWorkerAnswer;
  try {
    const progress: DocumentProgress = (done, total) => {
      parentPort?.postMessage({ id, progress: { done, total } } satisfies DocumentWorkerAnswer);
    };
    answer = { id, text: await readers[request.format](request, progress) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    // V8's words for a text or buffer past what it can hold: what a zip bomb's parts inflate to.
    const inflated = /string longer than|Invalid string length|Array buffer allocation failed/.test(message);
    answer = {
      id,
      error: inflated
        ? `its content inflates past what a reader can hold (a zip bomb, or a damaged file): ${message}`
        : message,
      range: name === documentRangeErrorName,
    };
  }
  parentPort?.postMessage(answer);
});

// The server starts its time limit from here, so starting a thread is not counted against the document.
parentPort?.postMessage({ ready: true } satisfies DocumentWorkerAnswer);
