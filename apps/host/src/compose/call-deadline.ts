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
  const either = new AbortController();
  let timedOut: DOMException | undefined;
  let timeout: AbortController | undefined;
  const onCallerAbort = () => either.abort(callerSignal.reason);
  const timer = setTimeout(() => {
    timedOut = new DOMException(`The call took longer than ${timeLimitMs} ms`, 'TimeoutError');
    timeout?.abort(timedOut);
    either.abort(timedOut);
  }, timeLimitMs);
  timer.unref();
  if (callerSignal.aborted) either.abort(callerSignal.reason);
  else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: either.signal,
    get timeout() {
      if (timeout === undefined) {
        timeout = new AbortController();
        if (timedOut !== undefined) timeout.abort(timedOut);
      }
      return timeout.signal;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal.removeEventListener('abort', onCallerAbort);
    },
  };
}
