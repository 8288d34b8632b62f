/** One call's time limit and the caller's cancellation, as signals the upstream call can follow. */
export interface CallDeadline {
  /** Aborted when the caller cancels or the time limit passes. */
  readonly signal: AbortSignal;
  /** Aborted only when the time limit passes. */
  readonly timeout: AbortSignal;
  /** Stops the timer and lets go of the caller's signal once the call is over. */
  dispose(): void;
}

/**
 * A call's deadline from one timer and one controller. Every proxied call
 * makes one, so it avoids `AbortSignal.any` and `AbortSignal.timeout`, which
 * cost several times as much per call and leave more for the collector; the
 * signal of the time limit alone is made only when asked for (a call that
 * failed, or a parked one), already aborted if the limit has passed. The
 * timer does not keep the process alive, as `AbortSignal.timeout`'s does not.
 */
export function callDeadline(callerSignal: AbortSignal, timeLimitMs: number): CallDeadline {
  return new TimedCall(callerSignal, timeLimitMs);
}

/**
 * A class, not an object literal with a getter: V8 keeps such a literal's accessor pair in the old generation, and
 * with it every call's closures until a full collection.
 */
class TimedCall implements CallDeadline {
  readonly #either = new AbortController();
  readonly #callerSignal: AbortSignal;
  readonly #onCallerAbort: () => void;
  readonly #timer: NodeJS.Timeout;
  #timedOut: DOMException | undefined;
  #timeout: AbortController | undefined;

  constructor(callerSignal: AbortSignal, timeLimitMs: number) {
    this.#callerSignal = callerSignal;
    this.#onCallerAbort = () => this.#either.abort(callerSignal.reason);
    this.#timer = setTimeout(() => {
      this.#timedOut = new DOMException(`The call took longer than ${timeLimitMs} ms`, 'TimeoutError');
      this.#timeout?.abort(this.#timedOut);
      this.#either.abort(this.#timedOut);
    }, timeLimitMs);
    this.#timer.unref();
    if (callerSignal.aborted) this.#either.abort(callerSignal.reason);
    else callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#either.signal;
  }

  get timeout(): AbortSignal {
    if (this.#timeout === undefined) {
      this.#timeout = new AbortController();
      if (this.#timedOut !== undefined) this.#timeout.abort(this.#timedOut);
    }
    return this.#timeout.signal;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#callerSignal.removeEventListener('abort', this.#onCallerAbort);
  }
}
