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
 * A call's deadline from one timer and two controllers. Every proxied call
 * makes one, so it avoids `AbortSignal.any` and `AbortSignal.timeout`, which
 * cost several times as much per call and leave more for the collector. The
 * timer does not keep the process alive, as `AbortSignal.timeout`'s does not.
 */
export function callDeadline(callerSignal: AbortSignal, timeLimitMs: number): CallDeadline {
  const timeout = new AbortController();
  const either = new AbortController();
  const onCallerAbort = () => either.abort(callerSignal.reason);
  const timer = setTimeout(() => {
    const reason = new DOMException(`The call took longer than ${timeLimitMs} ms`, 'TimeoutError');
    timeout.abort(reason);
    either.abort(reason);
  }, timeLimitMs);
  timer.unref();
  if (callerSignal.aborted) either.abort(callerSignal.reason);
  else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: either.signal,
    timeout: timeout.signal,
    dispose() {
      clearTimeout(timer);
      callerSignal.removeEventListener('abort', onCallerAbort);
    },
  };
}
