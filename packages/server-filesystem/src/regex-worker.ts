/**
 * Runs regular expressions off the main thread: a pattern that backtracks
 * catastrophically stalls only this worker, which the server terminates at
 * the time limit.
 */
import { parentPort } from 'node:worker_threads';
import { type LineQuery, matchLines } from './match-lines.ts';

parentPort?.on('message', (message: { id: number; text: string; query: LineQuery; limit: number }) => {
  try {
    parentPort?.postMessage({ id: message.id, lines: matchLines(message.text, message.query, message.limit) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: (error as Error).message });
  }
});

// The server starts its time limit from here, so a slow start is not taken for a slow expression.
parentPort?.postMessage({ ready: true });
