import { ToolError } from '@toolshed/mcp-core';

/** The time left for one call, and a signal that fires when it runs out or the caller cancels. */
export interface CallDeadline {
  readonly signal: AbortSignal;
  /** Whole seconds left, at least 1: what sharp's own timeout takes, so libvips stops too. */
  secondsLeft(): number;
  /** Settles with the work, or rejects as soon as the deadline passes or the caller cancels. */
  race<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): CallDeadline {
  const controller = new AbortController();
  const endsAt = Date.now() + timeoutMs;
  const timer = setTimeout(() => {
    controller.abort(
      new ToolError(
        `Processing took longer than ${timeoutMs} ms, the limit for one call; try a smaller image or fewer operations.`,
      ),
    );
  }, timeoutMs);
  const cancel = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', cancel, { once: true });
  if (callerSignal?.aborted === true) cancel();
  const { signal } = controller;
  return {
    signal,
    secondsLeft: () => Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)),
    race<T>(work: Promise<T>): Promise<T> {
      if (signal.aborted) {
        work.catch(() => {});
        return Promise.reject(signal.reason);
      }
      return new Promise<T>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
        work.then(
          (value) => {
            signal.removeEventListener('abort', stop);
            resolve(value);
          },
          (error: unknown) => {
            signal.removeEventListener('abort', stop);
            reject(error);
          },
        );
      });
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', cancel);
    },
  };
}
