import { type CallContext, ToolError } from '@toolshed/mcp-core';

/**
 * The one time limit every statement keeps to, and everything that follows
 * from it: how long SQLite waits on a locked file, when a query process is
 * killed, what the model is told then, and the progress the client hears
 * meanwhile so it does not give up first.
 */
export class StatementTimeLimit {
  readonly ms: number;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** Waiting on a lock counts against the limit, but no more than 5 s of it: a lock rarely clears later. */
  get busyTimeoutMs(): number {
    return Math.min(this.ms, 5000);
  }

  /** What a call that ran out of time answers: the limit, and how to make the query cheaper. */
  expired(): ToolError {
    return new ToolError(
      `The query was stopped after ${this.ms} ms, the time limit. Make it cheaper: add a WHERE clause on an indexed column or a LIMIT, avoid unbounded recursive CTEs, and check the plan with explain_query.`,
    );
  }

  /** What the client hears while a statement runs. */
  protected runningMessage(elapsedMs: number): string {
    return `query running for ${elapsedMs} ms; it is stopped at ${this.ms} ms`;
  }

  /**
   * Starts the clock for one statement: `onExpired` runs when the limit
   * passes; until then the client hears how long it has been running.
   * Returns the function that stops the clock.
   */
  start(onExpired: (error: ToolError) => void, progress?: CallContext['progress']): () => void {
    const started = performance.now();
    const timer = setTimeout(() => onExpired(this.expired()), this.ms);
    const ticker =
      progress === undefined
        ? undefined
        : setInterval(
            () => {
              const elapsed = Math.round(performance.now() - started);
              progress(elapsed, this.ms, this.runningMessage(elapsed));
            },
            Math.min(1000, Math.max(50, this.ms / 4)),
          );
    return () => {
      clearTimeout(timer);
      clearInterval(ticker);
    };
  }
}
