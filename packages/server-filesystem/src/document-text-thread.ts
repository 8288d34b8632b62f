import type { DocumentText, DocumentTextRequest } from './document-text.ts';
import type { DocumentWorkerAnswer } from './document-worker.ts';

// The bundled library keeps the worker beside it as .js; from source it is .ts.
const documentWorkerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './document-worker.ts' : './document-worker.js',
  import.meta.url,
);

/** Heap a document's worker may use: a bomb that inflates past it ends that worker, never the server. */
export const documentWorkerHeapMb = 512;

export interface DocumentThreadOptions {
  /** Milliseconds the extraction may take, counted from when the worker is ready. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** The worker to run; the document worker unless a test gives another. */
  readonly workerUrl?: URL;
}

/** Why a document yielded no text, as the end of a sentence: a fault of the file, or of the range asked for. */
export class DocumentTextError extends Error {
  readonly range: boolean;
  constructor(message: string, range: boolean) {
    super(message);
    this.name = 'DocumentTextError';
    this.range = range;
  }
}

/**
 * Extracts a document's text in a worker of its own, held to a time limit and
 * a heap limit and ended when the call is cancelled. The bytes are moved to
 * the worker, not copied. A worker per call: nothing one document did to a
 * parser's state is left for the next.
 */
export function extractDocumentText(
  request: DocumentTextRequest,
  options: DocumentThreadOptions,
): Promise<DocumentText> {
  const { signal, timeoutMs } = options;
  signal?.throwIfAborted();
  // node:worker_threads is loaded with the first document, not at start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(options.workerUrl ?? documentWorkerUrl, {
    resourceLimits: { maxOldGenerationSizeMb: documentWorkerHeapMb, maxYoungGenerationSizeMb: 32 },
    // Piped and dropped: a parser's console output must never reach stdout, the stdio transport's channel.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<DocumentText>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    worker.on('message', (answer: DocumentWorkerAnswer) => {
      if ('ready' in answer) {
        timer = setTimeout(() => {
          finish(() =>
            reject(
              new DocumentTextError(
                `reading it took longer than ${timeoutMs} ms and was stopped (a damaged file, or one made to stall ` +
                  'a reader); try a smaller range (first/last)',
                false,
              ),
            ),
          );
        }, timeoutMs);
        const transfer = request.bytes.byteOffset === 0 && request.bytes.byteLength === request.bytes.buffer.byteLength;
        worker.postMessage(request, transfer ? [request.bytes.buffer as ArrayBuffer] : []);
        return;
      }
      if ('text' in answer) finish(() => resolve(answer.text));
      else finish(() => reject(new DocumentTextError(answer.error, answer.range)));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const message =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `reading it needed more than the ${documentWorkerHeapMb} MB a document may use (a damaged or inflated file)`
          : error.message;
      finish(() => reject(new DocumentTextError(message, false)));
    });
    worker.on('exit', (code) => {
      finish(() => reject(new DocumentTextError(`the reader stopped (exit code ${code})`, false)));
    });
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
