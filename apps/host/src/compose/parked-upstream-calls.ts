import type { CallContext } from '@toolshed/mcp-core';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { createHash } = process.getBuiltinModule('node:crypto');

/** How long an upstream call waits for its caller to retry with an answer before it is cancelled. */
export const parkedCallLifetimeMs: number = 5 * 60_000;

type Ask = (context: CallContext) => Promise<unknown>;

/**
 * One call to a legacy upstream on behalf of a 2026-era caller. The upstream
 * asks in the middle of its call and waits; the caller answers by retrying
 * its whole request. So the upstream call is not cancelled when the caller's
 * attempt ends at the question: it is parked here, still waiting, and the
 * retry picks it up, asks the same question (answered from the retry), and
 * hands the answer over. The upstream call runs once, whatever it did before
 * asking.
 */
export class ParkedUpstreamCall {
  readonly result: Promise<unknown>;
  readonly #controller = new AbortController();
  #context: CallContext;
  #question: { ask: Ask; settle: (answer: Promise<unknown>) => void } | undefined;
  #expiry: NodeJS.Timeout | undefined;
  #detach: (() => void) | undefined;

  constructor(
    context: CallContext,
    start: (signal: AbortSignal, onQuestion: (ask: Ask) => Promise<unknown>) => Promise<unknown>,
  ) {
    this.#context = context;
    this.result = start(this.#controller.signal, (ask) => this.#asked(ask));
    this.#follow(context);
  }

  /** Whether the upstream is waiting for an answer only a retry can bring. */
  get waiting(): boolean {
    return this.#question !== undefined;
  }

  /** The attempt the call now serves: progress goes to it. */
  get context(): CallContext {
    return this.#context;
  }

  /** A retry of the caller's request takes the call over: a waiting question is asked again, through it. */
  resume(context: CallContext): void {
    this.#context = context;
    this.#follow(context);
    if (this.#question !== undefined) {
      const { ask, settle } = this.#question;
      this.#question = undefined;
      settle(ask(context));
    }
  }

  cancel(reason: unknown): void {
    this.#detach?.();
    clearTimeout(this.#expiry);
    this.#controller.abort(reason);
  }

  #asked(ask: Ask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const settle = (answer: Promise<unknown>) => answer.then(resolve, reject);
      this.#question = { ask, settle };
      // Asked through the current attempt: a legacy caller answers at once; a 2026 one ends its attempt here.
      const answered = ask(this.#context);
      answered.then(
        (value) => {
          if (this.#question?.settle !== settle) return;
          this.#question = undefined;
          resolve(value);
        },
        (error: unknown) => {
          if (this.#question?.settle !== settle) return;
          this.#question = undefined;
          reject(error);
        },
      );
    });
  }

  /** Cancels the upstream call when its caller cancels — but not when the attempt only ended to ask. */
  #follow(context: CallContext): void {
    this.#detach?.();
    clearTimeout(this.#expiry);
    const onAbort = () => {
      if (this.#question === undefined) {
        this.#controller.abort(context.signal.reason);
        return;
      }
      this.#expiry = setTimeout(
        () => this.#controller.abort(new Error('The caller did not come back with an answer')),
        parkedCallLifetimeMs,
      );
      this.#expiry.unref();
    };
    if (context.signal.aborted) {
      onAbort();
      return;
    }
    context.signal.addEventListener('abort', onAbort, { once: true });
    this.#detach = () => context.signal.removeEventListener('abort', onAbort);
  }
}

/** Who made a call, as far as a retry of it can show: the same on every attempt. */
export interface RetryingCaller {
  subject: string | undefined;
  clientName: string | undefined;
  clientVersion: string | undefined;
}

/**
 * What identifies a call across its caller's retries, on every replica: the
 * caller, the tool (as the host names it) and the exact arguments.
 */
export function parkedCallKey(caller: RetryingCaller, tool: string, args: unknown): string {
  const who = [caller.subject ?? '', caller.clientName ?? '', caller.clientVersion ?? ''];
  return createHash('sha256')
    .update(JSON.stringify([who, tool, args]))
    .digest('base64url');
}

/**
 * The calls of one proxy tool that may wait for a retry, found again by what
 * identifies a retry: the caller and the exact arguments.
 */
export class ParkedUpstreamCalls {
  readonly #calls = new Map<string, Set<ParkedUpstreamCall>>();

  static keyOf(context: CallContext, tool: string, args: Record<string, unknown>): string {
    return parkedCallKey(
      {
        subject: context.auth?.subject,
        clientName: context.client.info?.name,
        clientVersion: context.client.info?.version,
      },
      tool,
      args,
    );
  }

  /** A call of this key waiting for its answer, now taken over by the retry's context. */
  resume(key: string, context: CallContext): ParkedUpstreamCall | undefined {
    for (const call of this.#calls.get(key) ?? []) {
      if (!call.waiting) continue;
      call.resume(context);
      return call;
    }
    return undefined;
  }

  /** Keeps a call findable until it settles. */
  add(key: string, call: ParkedUpstreamCall): void {
    let calls = this.#calls.get(key);
    if (calls === undefined) {
      calls = new Set();
      this.#calls.set(key, calls);
    }
    calls.add(call);
    const leave = () => {
      calls.delete(call);
      if (calls.size === 0 && this.#calls.get(key) === calls) this.#calls.delete(key);
    };
    call.result.then(leave, leave);
  }
}
