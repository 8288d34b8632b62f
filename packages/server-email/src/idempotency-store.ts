/** What a key remembers: the message it was used for and how that send ended (or that it is under way). */
interface KeyRecord<Result> {
  fingerprint: string;
  outcome: Promise<Result>;
  expiresAt: number;
}

export type IdempotentOutcome<Result> =
  | { kind: 'first'; outcome: Promise<Result> }
  | { kind: 'replay'; outcome: Promise<Result> }
  | { kind: 'conflict' };

/**
 * Remembers each idempotency key with the message it sent, for a day, in
 * memory (a restart forgets), bounded in count with the oldest dropped first.
 * A retry with the same key and message gets the first outcome — waiting for
 * it when the first call is still running — and sends nothing. The same key
 * with another message is a conflict. A send that surely failed releases its
 * key so that a retry can send; one whose outcome is unknown keeps it.
 */
export class IdempotencyStore<Result> {
  readonly #records = new Map<string, KeyRecord<Result>>();
  readonly #ttlMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;

  constructor(options: { ttlMs?: number; maxKeys?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.#maxKeys = options.maxKeys ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * What this key already holds, without claiming it: this message's outcome,
   * a conflict, or nothing. A caller looks before it asks the user, so that a
   * replay asks nothing and the key is only claimed once the user said yes.
   */
  recall(key: string, fingerprint: string): Exclude<IdempotentOutcome<Result>, { kind: 'first' }> | undefined {
    const known = this.#records.get(key);
    if (known === undefined || known.expiresAt <= this.#now()) return undefined;
    return known.fingerprint === fingerprint ? { kind: 'replay', outcome: known.outcome } : { kind: 'conflict' };
  }

  /** Runs `send` unless this key already holds this message's outcome. */
  claim(
    key: string,
    fingerprint: string,
    send: () => Promise<Result>,
    keep: (error: unknown) => boolean,
  ): IdempotentOutcome<Result> {
    const known = this.recall(key, fingerprint);
    if (known !== undefined) return known;
    const now = this.#now();
    this.#records.delete(key);
    while (this.#records.size >= this.#maxKeys) {
      const oldest = this.#records.keys().next();
      if (oldest.done === true) break;
      this.#records.delete(oldest.value);
    }
    const outcome = send();
    const record: KeyRecord<Result> = { fingerprint, outcome, expiresAt: now + this.#ttlMs };
    this.#records.set(key, record);
    outcome.catch((error: unknown) => {
      if (!keep(error) && this.#records.get(key) === record) this.#records.delete(key);
    });
    return { kind: 'first', outcome };
  }
}
