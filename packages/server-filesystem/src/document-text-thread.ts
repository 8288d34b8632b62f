import type { Worker } from 'node:worker_threads';
import type { DocumentText, DocumentTextRequest } from './document-text.ts';
import type { DocumentWorkerAnswer } from './document-worker.ts';

// The bundled library keeps the worker beside it as .js; from source it is .ts.
const documentWorkerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './document-worker.ts' : './document-worker.js',
  import.meta.url,
);

/** Heap a document's worker may use: a bomb that inflates past it ends that worker, never the server. */
export const documentWorkerHeapMb = 512;

/** Why a document yielded no text, as the end of a sentence: a fault of the file, or of the range asked for. */
export class DocumentTextError extends Error {
  readonly range: boolean;
  constructor(message: string, range: boolean) {
    super(message);
    this.name = 'DocumentTextError';
    this.range = range;
  }
}

export interface DocumentExtractOptions {
  /** Milliseconds the extraction may take, counted from when a worker is ready for it. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Told as pages are read (PDF). */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** Workers that extract documents' text; see createDocumentThreads. */
export interface DocumentThreads {
  extract(request: DocumentTextRequest, options: DocumentExtractOptions): Promise<DocumentText>;
  /** Ends the idle workers. */
  close(): Promise<void>;
}

export interface DocumentThreadsOptions {
  /** The worker to run; the document worker unless a test gives another. */
  readonly workerUrl?: URL;
  /** Milliseconds an idle worker is kept for the next document. */
  readonly idleMs?: number;
  /** Documents one worker reads before it is replaced, so what a parser keeps between documents stays bounded. */
  readonly maxUses?: number;
}

interface DocumentThread {
  readonly worker: Worker;
  /** Settles once the worker listens: the time limit is for the document, not for starting a thread. */
  readonly ready: Promise<void>;
  uses: number;
  exited: boolean;
  idleTimer?: NodeJS.Timeout;
}

const maxIdleThreads = 2;

function startThread(workerUrl: URL): DocumentThread {
  // node:worker_threads is loaded with the first document, not at start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(workerUrl, {
    resourceLimits: { maxOldGenerationSizeMb: documentWorkerHeapMb },
    // Piped and dropped: a parser's console output must never reach stdout, the stdio transport's channel.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: DocumentWorkerAnswer) => {
      if (!('ready' in message)) return;
      cleanup();
      resolve();
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new DocumentTextError(`the reader did not start (${error.message})`, false));
    };
    const onExit = (code: number) => onError(new Error(`exit code ${code}`));
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  // Awaited by each extraction; this keeps a start that fails before then from being an unhandled rejection.
  ready.catch(() => undefined);
  const thread: DocumentThread = { worker, ready, uses: 0, exited: false };
  worker.once('exit', () => {
    thread.exited = true;
  });
  return thread;
}

/**
 * Extracts documents' text in worker threads held to a time limit and a heap
 * limit, each ended when its call is cancelled or its document fails. A
 * worker that answered is kept idle for the next document (unreferenced, so
 * it never holds the process open), because pdf.js runs several times faster
 * once compiled and warmed than in a fresh thread; it is replaced after
 * `maxUses` documents. The bytes are moved to the worker, not copied.
 *
 * @example
 * const threads = createDocumentThreads();
 * const text = await threads.extract(request, { timeoutMs: 30_000, signal });
 */
export function createDocumentThreads(options: DocumentThreadsOptions = {}): DocumentThreads {
  const { workerUrl = documentWorkerUrl, idleMs = 30_000, maxUses = 100 } = options;
  const idle: DocumentThread[] = [];
  let nextId = 0;

  const release = (thread: DocumentThread) => {
    if (thread.uses >= maxUses || idle.length >= maxIdleThreads) {
      void thread.worker.terminate();
      return;
    }
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      idle.splice(idle.indexOf(thread), 1);
      void thread.worker.terminate();
    }, idleMs);
    thread.idleTimer.unref();
    idle.push(thread);
  };

  return {
    async extract(request, { timeoutMs, signal, onProgress }) {
      signal?.throwIfAborted();
      let thread = idle.pop();
      while (thread?.exited === true) thread = idle.pop();
      thread ??= startThread(workerUrl);
      clearTimeout(thread.idleTimer);
      thread.worker.ref();
      try {
        await thread.ready;
      } catch (error) {
        void thread.worker.terminate();
        throw error;
      }
      const { worker } = thread;
      const id = nextId++;
      thread.uses++;
      return new Promise<DocumentText>((resolve, reject) => {
        let settled = false;
        const finish = (outcome: () => void, reusable: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          if (reusable) release(thread);
          else void worker.terminate();
          outcome();
        };
        const onAbort = () => finish(() => reject(signal?.reason), false);
        const onMessage = (answer: DocumentWorkerAnswer) => {
          if (!('id' in answer) || answer.id !== id) return;
          if ('progress' in answer) onProgress?.(answer.progress.done, answer.progress.total);
          if ('text' in answer) finish(() => resolve(answer.text), true);
          else if ('error' in answer) {
            // A range error leaves the parser sound; any other may have left it in a state not to reuse.
            finish(() => reject(new DocumentTextError(answer.error, answer.range)), answer.range);
          }
        };
        const onError = (error: Error & { code?: string }) => {
          const message =
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `reading it needed more than the ${documentWorkerHeapMb} MB a document may use (a damaged or inflated file)`
              : error.message;
          finish(() => reject(new DocumentTextError(message, false)), false);
        };
        const onExit = (code: number) =>
          finish(() => reject(new DocumentTextError(`the reader stopped (exit code ${code})`, false)), false);
        const timer = setTimeout(() => {
          finish(
            () =>
              reject(
                new DocumentTextError(
                  `reading it took longer than ${timeoutMs} ms and was stopped (a damaged file, or one made to ` +
                    'stall a reader); try a smaller range (first/last)',
                  false,
                ),
              ),
            false,
          );
        }, timeoutMs);
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        if (signal?.aborted === true) {
          onAbort();
          return;
        }
        signal?.addEventListener('abort', onAbort, { once: true });
        const { bytes } = request;
        const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        worker.postMessage({ id, request }, owned ? [bytes.buffer as ArrayBuffer] : []);
      });
    },
    async close() {
      const closing = idle.splice(0);
      for (const thread of closing) clearTimeout(thread.idleTimer);
      await Promise.all(closing.map((thread) => thread.worker.terminate()));
    },
  };
}
