/**
 * Runs regular expressions off the main thread: a pattern that backtracks
 * catastrophically stalls only this worker, which the server terminates at
 * the time limit. Texts come in batches, so many small files cost one message.
 */
import { parentPort } from 'node:worker_threads';
import { createLineFinder, type LineFinder, type LineQuery } from './match-lines.ts';

let compiled: { query: LineQuery; find: LineFinder } | undefined;

parentPort?.on('message', (message: { id: number; texts: string[]; query: LineQuery; limit: number }) => {
  try {
    const { query } = message;
    if (
      compiled === undefined ||
      compiled.query.pattern !== query.pattern ||
      compiled.query.ignoreCase !== query.ignoreCase ||
      compiled.query.regex !== query.regex
    ) {
      compiled = { query, find: createLineFinder(query) };
    }
    const find = compiled.find;
    parentPort?.postMessage({ id: message.id, lines: message.texts.map((text) => find(text, message.limit)) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: (error as Error).message });
  }
});

// The server starts its time limit from here, so a slow start is not taken for a slow expression.
parentPort?.postMessage({ ready: true });
