import { ToolError } from '@toolshed/mcp-core';

interface Waiter {
  start: () => void;
  abort: () => void;
}

/**
 * Runs at most `maxConcurrent` jobs at once; up to `maxQueued` more wait in
 * order, and a call past that is refused as busy rather than piling up
 * decoded images in memory. A waiting caller that is cancelled leaves the
 * queue. A slot is held until the work itself settles, even when its caller
 * has given up, so memory stays bounded by the limit.
 */
export class WorkLimiter {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  readonly #waiting: Waiter[] = [];
  #running = 0;

  constructor(maxConcurrent: number, maxQueued: number) {
    this.#maxConcurrent = maxConcurrent;
    this.#maxQueued = maxQueued;
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.start();
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#running < this.#maxConcurrent) {
      this.#running += 1;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.#maxQueued) {
      return Promise.reject(
        new ToolError(
          `The image server is busy: ${this.#running} images are being processed and ${this.#waiting.length} calls are waiting. Try again in a few seconds.`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', waiter.abort);
          this.#running += 1;
          resolve();
        },
        abort: () => {
          const index = this.#waiting.indexOf(waiter);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.abort, { once: true });
      this.#waiting.push(waiter);
    });
  }
}
