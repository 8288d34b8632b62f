import { progressMessage, type RunningTask } from './running-task.ts';
import type { TaskService } from './task-service.ts';
import type { TaskRecord } from './task-store.ts';

/**
 * The chance a `tools/call` has to become a task, for a client that declared
 * the extension and a tool that allows it. The call starts as an ordinary
 * request — its questions are multi round-trip rounds, answered before
 * anything happens — and becomes a task when the tool says so
 * (`context.continueAsTask()`) or when it is still running, with no question
 * outstanding, after the tool's `taskAfterMs`. From then on its questions
 * are the task's `inputRequests`, its progress the task's status message,
 * and only `tasks/cancel` (or the server closing) stops it.
 */
export class TaskEscalation {
  readonly #service: TaskService;
  readonly #principal: string;
  readonly #controller: AbortController;
  readonly #keys: () => Set<string>;
  /** Cuts the work loose from the request that started it: the response is about to be sent. */
  readonly #detach: () => void;
  readonly #started: Promise<void>;
  #markStarted!: () => void;
  #creating: Promise<{ task: RunningTask; record: TaskRecord } | undefined> | undefined;
  #task: RunningTask | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** The last progress before the call became a task: the task's first status message when the tool gives none. */
  #progress: string | undefined;

  constructor(
    service: TaskService,
    principal: string,
    controller: AbortController,
    keys: () => Set<string>,
    detach: () => void,
  ) {
    this.#service = service;
    this.#principal = principal;
    this.#controller = controller;
    this.#keys = keys;
    this.#detach = detach;
    this.#started = new Promise((resolve) => {
      this.#markStarted = resolve;
    });
  }

  /** Resolves when the call begins to become a task. */
  get started(): Promise<void> {
    return this.#started;
  }

  /** The task, once created. */
  get task(): RunningTask | undefined {
    return this.#task;
  }

  /**
   * Becomes a task once `afterMs` has passed, unless the call is asking the
   * client something then (that round ends the attempt instead) or is over.
   */
  escalateAfter(afterMs: number, asking: () => boolean): void {
    if (!Number.isFinite(afterMs)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!asking()) void this.begin(undefined);
    }, afterMs);
  }

  /** Progress reported while the call is still an ordinary request. */
  noteProgress(done: number, total?: number, message?: string): void {
    if (Number.isFinite(done)) this.#progress = progressMessage(done, total, message);
  }

  /** The attempt ended some other way: no task will be made for it. */
  forgo(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Creates the task (once). Resolves `true` when it exists; the work then
   * goes on as the task. Resolves `false` when the store cannot take one: the
   * call simply goes on as an ordinary request.
   */
  begin(statusMessage: string | undefined): Promise<boolean> {
    this.forgo();
    this.#creating ??= this.#create(statusMessage);
    return this.#creating.then((created) => created !== undefined);
  }

  /** The task and its first state, or undefined when it could not be created. */
  created(): Promise<{ task: RunningTask; record: TaskRecord } | undefined> {
    return this.#creating ?? Promise.resolve(undefined);
  }

  async #create(statusMessage: string | undefined): Promise<{ task: RunningTask; record: TaskRecord } | undefined> {
    if (this.#controller.signal.aborted) return undefined;
    this.#markStarted();
    try {
      const created = await this.#service.begin(
        this.#principal,
        this.#controller,
        this.#keys(),
        statusMessage ?? this.#progress,
      );
      this.#detach();
      this.#task = created.task;
      return created;
    } catch (error) {
      this.#service.report(error, 'creating a task');
      return undefined;
    }
  }
}
