// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes } = process.getBuiltinModule('node:crypto');

/** A call waiting for a human's decision in the console. */
export interface PendingApproval {
  /** Unguessable: the console's forms name the request by it. */
  readonly id: string;
  /** Who made the call, as the audit log names it. */
  readonly caller: string;
  readonly server: string;
  /** The tool as clients see it. */
  readonly tool: string;
  readonly upstreamTool: string;
  /** The exact arguments, shown to the human. */
  readonly arguments: Record<string, unknown>;
  /** The digest of those arguments, as the audit log has it; a decision must name it. */
  readonly argumentsDigest: string;
  /** Why the call needs approval, in words. */
  readonly reason: string;
  /** What the tool says it would do, when the server has a read-only preview of it. */
  readonly preview?: string | undefined;
  readonly requestedAt: number;
  readonly expiresAt: number;
}

export type ApprovalRequest = Omit<PendingApproval, 'id' | 'requestedAt' | 'expiresAt'>;

export type ApprovalVerdict =
  | { decision: 'approved' | 'denied'; by: string }
  | { decision: 'expired' }
  | { decision: 'cancelled' };

/** Why a decision was not taken. */
export type DecisionRefusal = 'unknown' | 'already_decided' | 'expired' | 'mismatch';

export interface ApprovalBrokerOptions {
  /** How long a call waits for a decision, or where to read it at each request (a reload may change it). Default 5 minutes. */
  timeLimitMs?: number | (() => number) | undefined;
  /** The clock; tests move it. Default Date.now. */
  now?: (() => number) | undefined;
}

/** Decided ids kept to tell a replay from a guess; older ones are simply unknown. */
const rememberedDecisions = 1000;

/**
 * Holds the calls that wait for a human's yes in the console. A request
 * is bound to its caller, tool, argument digest and expiry; a decision must
 * name the same tool and digest, is taken once, and nothing else can settle
 * it: the only way in is `decide`, which the console calls for a logged-in
 * human's form. The model's arguments travel with the request to be shown,
 * never to be obeyed.
 */
export class ApprovalBroker {
  readonly #timeLimitMs: () => number;
  readonly #now: () => number;
  readonly #waiting = new Map<
    string,
    { approval: PendingApproval; settle(verdict: ApprovalVerdict): void; timer: NodeJS.Timeout }
  >();
  /** How each recent request ended, to tell a replay or a late decision from a guess. */
  readonly #ended = new Map<string, ApprovalVerdict['decision']>();
  readonly #listeners = new Set<() => void>();
  #consoleUrl: string | undefined;

  constructor(options: ApprovalBrokerOptions = {}) {
    const limit = options.timeLimitMs ?? 5 * 60_000;
    this.#timeLimitMs = typeof limit === 'number' ? () => limit : limit;
    this.#now = options.now ?? Date.now;
  }

  /** Where the console is, while one is serving; undefined means nobody can decide here. */
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

  /** Calls `listener` whenever the waiting list changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  pending(): PendingApproval[] {
    return [...this.#waiting.values()].map((entry) => entry.approval).sort((a, b) => a.requestedAt - b.requestedAt);
  }

  get(id: string): PendingApproval | undefined {
    return this.#waiting.get(id)?.approval;
  }

  /**
   * Waits for a decision on one call: settles with the human's decision, or
   * `expired` at the time limit, or `cancelled` when `signal` aborts. The
   * request is gone from the list once settled.
   */
  request(
    request: ApprovalRequest,
    signal: AbortSignal,
  ): { approval: PendingApproval; verdict: Promise<ApprovalVerdict> } {
    const requestedAt = this.#now();
    const timeLimitMs = this.#timeLimitMs();
    const approval: PendingApproval = {
      ...request,
      id: randomBytes(16).toString('base64url'),
      requestedAt,
      expiresAt: requestedAt + timeLimitMs,
    };
    const verdict = new Promise<ApprovalVerdict>((resolve) => {
      const settle = (result: ApprovalVerdict) => {
        const entry = this.#waiting.get(approval.id);
        if (entry === undefined) return;
        clearTimeout(entry.timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiting.delete(approval.id);
        this.#remember(approval.id, result.decision);
        resolve(result);
        this.#changed();
      };
      const onAbort = () => settle({ decision: 'cancelled' });
      const timer = setTimeout(() => settle({ decision: 'expired' }), timeLimitMs);
      timer.unref();
      this.#waiting.set(approval.id, { approval, settle, timer });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    this.#changed();
    return { approval, verdict };
  }

  /**
   * A human's decision on the request `id`, which must still name `tool` and
   * `argumentsDigest` (what the human was shown). Taken once: a second
   * decision on the same request is refused, as is one past its expiry.
   */
  decide(
    id: string,
    decision: { tool: string; argumentsDigest: string; approve: boolean; by: string },
  ): { ok: true } | { ok: false; refusal: DecisionRefusal } {
    const entry = this.#waiting.get(id);
    if (entry === undefined) {
      const ended = this.#ended.get(id);
      if (ended === undefined || ended === 'cancelled') return { ok: false, refusal: 'unknown' };
      return { ok: false, refusal: ended === 'expired' ? 'expired' : 'already_decided' };
    }
    const { approval } = entry;
    if (approval.tool !== decision.tool || approval.argumentsDigest !== decision.argumentsDigest) {
      return { ok: false, refusal: 'mismatch' };
    }
    if (this.#now() >= approval.expiresAt) {
      entry.settle({ decision: 'expired' });
      return { ok: false, refusal: 'expired' };
    }
    entry.settle({ decision: decision.approve ? 'approved' : 'denied', by: decision.by });
    return { ok: true };
  }

  /** Ends every wait (the host is closing): each settles as cancelled. */
  close(): void {
    for (const entry of [...this.#waiting.values()]) entry.settle({ decision: 'cancelled' });
  }

  #remember(id: string, decision: ApprovalVerdict['decision']): void {
    this.#ended.set(id, decision);
    if (this.#ended.size > rememberedDecisions) {
      const oldest = this.#ended.keys().next().value;
      if (oldest !== undefined) this.#ended.delete(oldest);
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
