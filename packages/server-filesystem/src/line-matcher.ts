import type { Worker } from 'node:worker_threads';
import { ToolError } from '@toolshed/mcp-core';
import { createLineFinder, type LineQuery } from './match-lines.ts';

/**
 * Finds matching lines: literals in place, regular expressions in a worker
 * held to a time limit and stopped when the call is cancelled.
 */
export interface LineMatcher {
  /** The matching lines of each text, at most `limit` per text. */
  find(texts: readonly string[], limit: number): Promise<number[][]>;
  close(): Promise<void>;
}

// The bundled library keeps the worker beside it as .js; from source it is .ts.
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './regex-worker.ts' : './regex-worker.js', import.meta.url);

interface RegexThread {
  worker: Worker;
  /** Settles once the worker listens: the time limit is for the expression, not for starting a thread. */
  ready: Promise<void>;
}

function startRegexThread(): RegexThread {
  // node:worker_threads is loaded with the first regular expression search, not at start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (message.ready !== true) return;
      cleanup();
      resolve();
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new ToolError(`The search stopped: ${error.message}`));
    };
    const onExit = (code: number) => onError(new Error(`the regular expression thread exited with code ${code}`));
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  return { worker, ready };
}

export function createLineMatcher(query: LineQuery, timeoutMs: number, signal?: AbortSignal): LineMatcher {
  if (!query.regex) {
    const find = createLineFinder(query);
    return { find: async (texts, limit) => texts.map((text) => find(text, limit)), close: async () => undefined };
  }
  try {
    new RegExp(query.pattern, 'u');
  } catch (error) {
    throw new ToolError(`The regular expression is invalid: ${(error as Error).message}`);
  }
  let thread: RegexThread | undefined;
  let nextId = 0;
  return {
    async find(texts, limit) {
      signal?.throwIfAborted();
      thread ??= startRegexThread();
      const started = thread;
      try {
        await started.ready;
      } catch (error) {
        if (thread === started) thread = undefined;
        throw error;
      }
      const current = started.worker;
      const id = nextId++;
      return new Promise<number[][]>((resolve, reject) => {
        const stop = (reason: unknown) => {
          cleanup();
          if (thread === started) thread = undefined;
          void current.terminate();
          reject(reason);
        };
        // An expression that backtracks without end would hold the worker until the time limit: a cancelled
        // call (a cancelled task, say) ends it now.
        const onAbort = () => stop(signal?.reason);
        const timer = setTimeout(() => {
          stop(
            new ToolError(
              `The regular expression took longer than ${timeoutMs} ms and was stopped; ` +
                'simplify it (nested quantifiers such as (a+)+ backtrack without end) or search for a literal.',
            ),
          );
        }, timeoutMs);
        const onMessage = (message: { id: number; lines?: number[][]; error?: string }) => {
          if (message.id !== id) return;
          cleanup();
          if (message.error !== undefined) reject(new ToolError(`The regular expression failed: ${message.error}`));
          else resolve(message.lines ?? []);
        };
        const onError = (error: Error) => {
          cleanup();
          if (thread === started) thread = undefined;
          reject(new ToolError(`The search stopped: ${error.message}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          current.off('message', onMessage);
          current.off('error', onError);
        };
        current.on('message', onMessage);
        current.on('error', onError);
        if (signal?.aborted === true) {
          onAbort();
          return;
        }
        signal?.addEventListener('abort', onAbort, { once: true });
        current.postMessage({ id, texts, query, limit });
      });
    },
    async close() {
      await thread?.worker.terminate();
      thread = undefined;
    },
  };
}
