import type { CallContext } from './call-context.ts';

/** A call's context that can say whether its request was stopped without making its AbortSignal. */
export abstract class StoppableContext {
  abstract get stopped(): boolean;
}

/**
 * How a request in flight is stopped: by `notifications/cancelled` or by its
 * connection closing. Its AbortSignal is made only when something asks for
 * it (a tool that watches for cancellation, a request to the client): the
 * many calls that finish without either make none. An AbortController and
 * the event target of its signal are a good part of what a short call
 * allocates, and they live as long as the call.
 */
export class RequestStop {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** Whether the call's request was stopped, asked without making a signal where the context can say so itself. */
export function wasStopped(context: CallContext): boolean {
  return context instanceof StoppableContext ? context.stopped : context.signal.aborted;
}
