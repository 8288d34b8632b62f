import type { LoggerMessage, Worker } from 'tesseract.js';
import type { OcrLanguageData } from './ocr-languages.ts';

type Tesseract = typeof import('tesseract.js');

let loading: Promise<Tesseract> | undefined;

/** tesseract.js, loaded on the first OCR call: its WASM core is not needed to start or to list tools. */
function loadTesseract(): Promise<Tesseract> {
  loading ??= import('tesseract.js').then((loaded) => (loaded as { default?: Tesseract }).default ?? loaded);
  return loading;
}

export interface RecognizedText {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
}

interface PooledWorker {
  worker: Worker;
  /** Where the worker's progress goes while it works for a call. */
  onProgress: ((fraction: number) => void) | undefined;
  idleTimer?: ReturnType<typeof setTimeout>;
}

const idleMs = 60_000;

/**
 * Tesseract workers, each a worker thread running the WASM engine, so a
 * long recognition never blocks the server's own thread. A worker is kept
 * a minute after its call for the next call in the same languages (starting
 * one costs loading the engine and the language data); a call that runs out
 * of time or is cancelled terminates its worker, which stops the work at once.
 */
export class OcrWorkers {
  readonly #idle = new Map<string, PooledWorker[]>();
  readonly #maxIdle: number;
  #closed = false;

  constructor(maxIdle: number) {
    this.#maxIdle = maxIdle;
  }

  async recognize(
    image: Buffer,
    data: OcrLanguageData,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
  ): Promise<RecognizedText> {
    const key = `${data.directory}\0${data.gzip}\0${data.languages}`;
    const pooled = this.#idle.get(key)?.pop() ?? (await this.#start(data, signal));
    clearTimeout(pooled.idleTimer);
    pooled.onProgress = onProgress;
    const stop = () => {
      void pooled.worker.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      signal.throwIfAborted();
      const { data: page } = await Promise.race([
        pooled.worker.recognize(image, {}, { text: true }),
        new Promise<never>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
      ]);
      this.#release(key, pooled);
      return { text: page.text, confidence: page.confidence };
    } catch (error) {
      stop();
      throw signal.aborted ? signal.reason : error;
    } finally {
      signal.removeEventListener('abort', stop);
      pooled.onProgress = undefined;
    }
  }

  async #start(data: OcrLanguageData, signal: AbortSignal): Promise<PooledWorker> {
    const tesseract = await loadTesseract();
    const pooled: PooledWorker = { worker: undefined as unknown as Worker, onProgress: undefined };
    const started = tesseract.createWorker(data.languages, tesseract.OEM.LSTM_ONLY, {
      // A local directory, never a URL: tesseract.js reads the file and nothing is downloaded. With caching off it
      // writes no copy of the data either.
      langPath: data.directory,
      gzip: data.gzip,
      cacheMethod: 'none',
      logger: (message: LoggerMessage) => {
        if (message.status === 'recognizing text') pooled.onProgress?.(message.progress);
      },
      errorHandler: () => {},
    });
    // A worker that was still starting when its call ended is stopped as soon as it is up.
    const stopWhenUp = () =>
      void started.then(
        (worker) => worker.terminate(),
        () => {},
      );
    signal.addEventListener('abort', stopWhenUp, { once: true });
    try {
      pooled.worker = await started;
    } finally {
      signal.removeEventListener('abort', stopWhenUp);
    }
    return pooled;
  }

  #release(key: string, pooled: PooledWorker): void {
    const idle = this.#idle.get(key) ?? [];
    if (this.#closed || idle.length >= this.#maxIdle) {
      void pooled.worker.terminate();
      return;
    }
    pooled.idleTimer = setTimeout(() => {
      const index = idle.indexOf(pooled);
      if (index >= 0) idle.splice(index, 1);
      void pooled.worker.terminate();
    }, idleMs);
    pooled.idleTimer.unref();
    idle.push(pooled);
    this.#idle.set(key, idle);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const workers = [...this.#idle.values()].flat();
    this.#idle.clear();
    for (const pooled of workers) clearTimeout(pooled.idleTimer);
    await Promise.all(workers.map((pooled) => pooled.worker.terminate().catch(() => {})));
  }
}
