import type { TaskSignal } from '@toolshed/mcp-core';

/**
 * The holding replica's side of task signals. A cancel or answers sent to
 * any replica wait in the task's row until the replica running the task
 * takes them; this takes them when woken (a signal sent in this process, or
 * PostgreSQL's NOTIFY) and, as a fallback, on a poll that runs only while
 * this replica holds unfinished tasks and someone listens — an idle replica
 * sends no statements. Takes never overlap, so each signal is handed to the
 * listeners once.
 */
export class TaskSignalDelivery {
  readonly #take: () => Promise<TaskSignal[]>;
  readonly #pollEveryMs: number;
  readonly #limit: number;
  readonly #held = new Set<string>();
  readonly #listeners = new Set<(signal: TaskSignal) => void>();
  #taking: Promise<void> | undefined;
  #takeAgain = false;
  #poll: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(take: () => Promise<TaskSignal[]>, options: { pollEveryMs: number; limit: number }) {
    this.#take = take;
    this.#pollEveryMs = options.pollEveryMs;
    this.#limit = options.limit;
  }

  /**
   * Counts a task this replica runs from now on. Throws beyond the limit: a
   * client must not be able to grow the store without bound, and the
   * engine answers such a call without a task.
   */
  hold(taskId: string): void {
    if (this.#held.size >= this.#limit) {
      throw new Error(`this replica already runs ${this.#limit} unfinished tasks; no more are taken until some end`);
    }
    this.#held.add(taskId);
    this.#keepPolling();
  }

  /** The task has ended here (or could not be created): its signals are no longer looked for. */
  release(taskId: string): void {
    this.#held.delete(taskId);
    this.#keepPolling();
  }

  holds(taskId: string): boolean {
    return this.#held.has(taskId);
  }

  listen(listener: (signal: TaskSignal) => void): () => void {
    this.#listeners.add(listener);
    this.#keepPolling();
    // Signals that came while nobody listened have waited in the store for this.
    this.wake();
    return () => {
      this.#listeners.delete(listener);
      this.#keepPolling();
    };
  }

  /** Takes waiting signals now; a take already under way is followed by one more, which sees what came meanwhile. */
  wake(): void {
    // Without listeners a signal taken would be lost: it stays in the row until someone listens.
    if (this.#closed || this.#held.size === 0 || this.#listeners.size === 0) return;
    if (this.#taking !== undefined) {
      this.#takeAgain = true;
      return;
    }
    this.#taking = this.#deliver()
      // A store that cannot be reached now is asked again at the next poll or wake-up.
      .catch(() => {})
      .finally(() => {
        this.#taking = undefined;
        if (this.#takeAgain) {
          this.#takeAgain = false;
          this.wake();
        }
      });
  }

  /** Stops polling; resolves once a take under way has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#keepPolling();
    await this.#taking;
  }

  async #deliver(): Promise<void> {
    for (const signal of await this.#take()) {
      for (const listener of this.#listeners) listener(signal);
    }
  }

  #keepPolling(): void {
    const wanted = !this.#closed && this.#held.size > 0 && this.#listeners.size > 0;
    if (wanted && this.#poll === undefined) {
      // Unreferenced: a poll never keeps a process alive that has nothing else to do.
      this.#poll = setInterval(() => this.wake(), this.#pollEveryMs).unref();
    } else if (!wanted && this.#poll !== undefined) {
      clearInterval(this.#poll);
      this.#poll = undefined;
    }
  }
}
