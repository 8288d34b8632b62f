import { RequestStop } from './request-stop.ts';

/** What gives a request's AbortSignal (a RequestStop, an exchange, an AbortController). */
export interface StopSource {
  readonly signal: AbortSignal;
  /**
   * Whether `signal` is aborted, for a source that makes its signal only when asked (a getter): read instead of
   * the signal wherever only that is needed. Without it, the signal is read.
   */
  readonly aborted?: boolean;
}

/** Whether the source was stopped, without making its signal where it can say so itself. */
export function isStopped(source: StopSource): boolean {
  return source.aborted ?? source.signal.aborted;
}

/**
 * One attempt at a request: stopped on its own (it ends to ask the client)
 * or when the request's own stop is. Like RequestStop it makes its
 * AbortSignal only when asked; only then does it listen to the request's
 * signal (making that one too), and `release` stops listening when the
 * attempt is over.
 */
export class LinkedStop implements StopSource {
  readonly #parent: StopSource;
  readonly #own = new RequestStop();
  #unlink: (() => void) | undefined;

  constructor(parent: StopSource) {
    this.#parent = parent;
  }

  get aborted(): boolean {
    return this.#own.aborted || isStopped(this.#parent);
  }

  get signal(): AbortSignal {
    if (this.#unlink === undefined && !this.#own.aborted) {
      const parentSignal = this.#parent.signal;
      if (parentSignal.aborted) {
        this.#own.abort(parentSignal.reason);
      } else {
        const stop = () => this.#own.abort(parentSignal.reason);
        parentSignal.addEventListener('abort', stop, { once: true });
        this.#unlink = () => parentSignal.removeEventListener('abort', stop);
      }
    }
    return this.#own.signal;
  }

  abort(reason: unknown): void {
    this.#own.abort(reason);
  }

  /** The attempt is over: stop listening to the request's signal. */
  release(): void {
    this.#unlink?.();
    this.#unlink = () => {};
  }
}
