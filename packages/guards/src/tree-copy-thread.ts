import type { Worker } from 'node:worker_threads';
import {
  createSmallFileCopier,
  type FileBatch,
  type FileBatchResult,
  type SmallFileCopierOptions,
} from './small-file-copier.ts';

/**
 * A second thread that copies batches of a tree's small files while the calling thread walks the tree and copies
 * others: nearly all of a copy's time is system calls, and with two threads making them the kernel works on two
 * directories at once (on two cores, or while one thread waits on the disk).
 */
export interface TreeCopyThread {
  /** Batches sent and not yet answered. */
  readonly pending: number;
  copy(batch: FileBatch): Promise<FileBatchResult>;
  /** Stops the thread; resolves once it no longer runs, so nothing it does can land after. */
  stop(): Promise<void>;
}

// The thread's whole program is the copier's own source text, so the thread loads no module file: it runs the same
// from source, from a package's dist and from a bin with its dependencies bundled into one file.
const threadProgram = `'use strict';
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const copyBatch = (${createSmallFileCopier.toString()})(workerData);
const counters = new BigInt64Array(workerData.budget);
parentPort.on('message', (batch) => {
  const result = copyBatch(batch);
  Atomics.add(counters, 1, 1n);
  parentPort.postMessage(result);
});
`;

/**
 * Starts the thread. The options' budget is shared with it: its first BigInt64 holds the bytes taken, and the
 * thread adds one to the second as it finishes each batch, so the caller can tell how many it holds without
 * waiting for their answers.
 */
export function startTreeCopyThread(options: SmallFileCopierOptions): TreeCopyThread {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker: Worker = new Worker(threadProgram, { eval: true, workerData: options });
  const waiting = new Map<number, { resolve(result: FileBatchResult): void; reject(error: Error): void }>();
  let failed: Error | undefined;
  const failAll = (error: Error) => {
    failed ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (result: FileBatchResult) => {
    const waiter = waiting.get(result.id);
    waiting.delete(result.id);
    waiter?.resolve(result);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the copying thread stopped (exit code ${code})`)));
  return {
    get pending() {
      return waiting.size;
    },
    copy(batch) {
      if (failed !== undefined) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        waiting.set(batch.id, { resolve, reject });
        worker.postMessage(batch);
      });
    },
    async stop() {
      await worker.terminate();
    },
  };
}
