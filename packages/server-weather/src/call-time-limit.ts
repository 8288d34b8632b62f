/**
 * The time limit of one whole call, across every upstream request it makes,
 * every retry, every wait between tries and every body it reads. Each try has
 * its own time limit too, but tries add up: three tries of a body that
 * trickles in (never quiet long enough for the idle timeout) took 60.7 s,
 * past the 60 s after which the official clients give up on a call. This
 * limit keeps the call's answer, an error that says why, inside that.
 */

/**
 * Runs `work` with a signal that aborts when the caller cancels or when
 * `limitMs` have passed. On the time limit the signal's reason is a
 * `TimeoutError` (the name `AbortSignal.timeout` gives), so code below can
 * tell a call that ran out of time, which may still be served a stale
 * answer, from one the caller cancelled.
 */
export async function withinCallTimeLimit<Result>(
  limitMs: number,
  callSignal: AbortSignal,
  work: (signal: AbortSignal) => Promise<Result>,
): Promise<Result> {
  callSignal.throwIfAborted();
  // One controller and one timer, cleared when the call ends: cheaper than AbortSignal.any with AbortSignal.timeout.
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(new DOMException(`The call took longer than ${limitMs} ms, its time limit.`, 'TimeoutError')),
    limitMs,
  );
  const cancel = () => controller.abort(callSignal.reason);
  callSignal.addEventListener('abort', cancel, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    callSignal.removeEventListener('abort', cancel);
  }
}

/** Whether an abort reason is a time limit running out rather than a caller cancelling. */
export function isTimeLimitReason(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/** The time limit in words for a message: `45 s`, or `300 ms` below a second. */
export function describeTimeLimit(limitMs: number): string {
  return limitMs >= 1000 ? `${Math.round(limitMs / 100) / 10} s` : `${limitMs} ms`;
}
