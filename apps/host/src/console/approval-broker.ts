import type { ApprovalRecord, DecisionRefusal, StateStore } from '@toolshed/state';

export type { DecisionRefusal } from '@toolshed/state';

/** A call waiting for a human's decision in the console, on any replica. */
export type PendingApproval = ApprovalRecord;

export type ApprovalRequest = Pick<
  ApprovalRecord,
  'caller' | 'server' | 'tool' | 'upstreamTool' | 'arguments' | 'argumentsDigest' | 'reason' | 'preview' | 'retryKey'
>;

export type ApprovalVerdict =
  | { decision: 'approved' | 'denied'; by: string }
  | { decision: 'expired' }
  | { decision: 'cancelled' }
  /** Approved, and already run by another attempt of the same call: an approval runs one call. */
  | { decision: 'used' };

export interface ApprovalBrokerOptions {
  /** The host's state store, once it is open. */
  store: () => StateStore;
  /** How long a call waits for a decision, or where to read it at each request (a reload may change it). Default 5 minutes. */
  timeLimitMs?: number | (() => number) | undefined;
  /** The clock; tests move it. Default Date.now. */
  now?: (() => number) | undefined;
}

/** A decision announced on another replica may be missed while a connection is rebuilt: each waiter also looks this often. */
const lookEveryMs = 2000;

/**
 * The calls that wait for a human's yes in the console, kept in the state
 * store so every replica's console lists them and any can decide. A request
 * is bound to its caller, tool, argument digest and expiry; a decision must
 * name the same tool and digest and is taken once (one conditional update,
 * whichever replica's console it comes from); an approval is used by one
 * call. The model's arguments travel with the request to be shown, never
 * to be obeyed.
 */
export class ApprovalBroker {
  readonly #store: () => StateStore;
  readonly #timeLimitMs: () => number;
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  /** Waits in this process, by request id: woken when the store says the request changed. */
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Ends every wait in this process (the host closing). */
  readonly #closing = new AbortController();
  #unsubscribe: (() => void) | undefined;
  #consoleUrl: string | undefined;

  constructor(options: ApprovalBrokerOptions) {
    const limit = options.timeLimitMs ?? 5 * 60_000;
    this.#store = options.store;
    this.#timeLimitMs = typeof limit === 'number' ? () => limit : limit;
    this.#now = options.now ?? Date.now;
  }

  /** Starts hearing the store's announcements (called once the store is open). */
  connect(): void {
    this.#unsubscribe ??= this.#store().approvals.onChange((id) => {
      for (const wake of this.#waiters.get(id) ?? []) wake();
      for (const listener of this.#listeners) listener();
    });
  }

  /** Where this replica's console is, while one is serving; undefined means nobody can decide here. */
  get consoleUrl(): string | undefined {
    return this.#consoleUrl;
  }

  get timeLimitMs(): number {
    return this.#timeLimitMs();
  }

  /** Marks a console as serving at `url`; the returned function marks it gone. */
  attach(url: string): () => void {
    this.#consoleUrl = url;
    return () => {
      if (this.#consoleUrl === url) this.#consoleUrl = undefined;
    };
  }

  /** Calls `listener` whenever a request is made or decided on any replica; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  pending(): Promise<PendingApproval[]> {
    return this.#store().approvals.pending(this.#now());
  }

  get(id: string): Promise<PendingApproval | undefined> {
    return this.#store().approvals.get(id);
  }

  /**
   * Puts one call on the waiting list — or, for a caller that retries the
   * same call (`retryKey`), finds the request it already made on any
   * replica — and waits for the decision: the human's, or `expired` at the
   * time limit, or `cancelled` when `signal` aborts. With `keepOnAbort`, an
   * abort leaves the request waiting for the caller's retry.
   */
  async request(
    request: ApprovalRequest,
    signal: AbortSignal,
    options: { keepOnAbort?: boolean } = {},
  ): Promise<{ approval: PendingApproval; verdict: Promise<ApprovalVerdict> }> {
    const approvals = this.#store().approvals;
    const now = this.#now();
    const earlier = request.retryKey === undefined ? undefined : await approvals.findForRetry(request.retryKey, now);
    const approval = earlier ?? (await approvals.create({ ...request, expiresAt: now + this.#timeLimitMs() }, now));
    return { approval, verdict: this.#wait(approval, signal, options.keepOnAbort === true) };
  }

  async #wait(approval: PendingApproval, signal: AbortSignal, keepOnAbort: boolean): Promise<ApprovalVerdict> {
    const approvals = this.#store().approvals;
    const ended = AbortSignal.any([signal, this.#closing.signal]);
    let wake = () => {};
    const woken = () => wake();
    const waiters = this.#waiters.get(approval.id) ?? new Set();
    waiters.add(woken);
    this.#waiters.set(approval.id, waiters);
    try {
      for (;;) {
        const current = await approvals.get(approval.id);
        const decision = current?.decision;
        if (decision === 'approved') {
          return (await approvals.use(approval.id, this.#now()))
            ? { decision: 'approved', by: current?.decidedBy ?? 'someone' }
            : { decision: 'used' };
        }
        if (decision === 'denied') return { decision: 'denied', by: current?.decidedBy ?? 'someone' };
        if (decision === 'expired') return { decision: 'expired' };
        if (decision !== undefined || current === undefined) return { decision: 'cancelled' };
        const now = this.#now();
        if (now >= approval.expiresAt) {
          await approvals.settle(approval.id, 'expired', now);
          continue;
        }
        if (ended.aborted) {
          if (keepOnAbort && !this.#closing.signal.aborted) return { decision: 'cancelled' };
          await approvals.settle(approval.id, 'cancelled', now);
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(lookEveryMs, approval.expiresAt - now));
          const done = () => {
            clearTimeout(timer);
            ended.removeEventListener('abort', done);
            resolve();
          };
          wake = done;
          ended.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      waiters.delete(woken);
      if (waiters.size === 0) this.#waiters.delete(approval.id);
    }
  }

  /**
   * A human's decision on the request `id`, which must still name `tool` and
   * `argumentsDigest` (what the human was shown). Taken once, on whichever
   * replica: a second decision is refused, as is one past the expiry.
   */
  decide(
    id: string,
    decision: { tool: string; argumentsDigest: string; approve: boolean; by: string },
  ): Promise<{ ok: true } | { ok: false; refusal: DecisionRefusal }> {
    return this.#store().approvals.decide(id, decision, this.#now());
  }

  /** Ends every wait in this process (the host is closing): each settles as cancelled. */
  close(): void {
    this.#closing.abort();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
