import { invalidParams } from '../errors/common-protocol-errors.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';

/** One answer a client gave in an earlier round, bound to the question it answered. */
export interface RememberedAnswer {
  /** Digest of the question (method and params) the answer belongs to. */
  readonly question: string;
  readonly response: Record<string, unknown>;
}

/** What travels in `requestState` between rounds of one request. */
export interface RequestStatePayload {
  /** The request it belongs to: method and a digest of its salient params. */
  readonly request: string;
  /** Who asked: the authenticated subject, or "" when the transport has no auth. */
  readonly principal: string;
  /** Milliseconds since the epoch after which the state is refused. */
  readonly expiresAt: number;
  /** Answers from earlier rounds, by input key. */
  readonly answers: Readonly<Record<string, RememberedAnswer>>;
  /** Unique to this state: a state is accepted once, so a replay of one that carries answers is refused. */
  readonly nonce?: string;
}

/**
 * Seals and opens `requestState`. The state passes through the client, so it
 * is attacker-controlled input: it is signed (HMAC-SHA256), bound to the
 * request and the principal, and expires. Replicas that share the key accept
 * each other's state, which is what lets the stateless era run without affinity.
 */
export class RequestStateSeal {
  readonly #keySource: string | Uint8Array | undefined;
  // Derived on first use, and node:crypto loaded where used throughout: most servers never seal state, and
  // node:crypto is among the costliest modules to load at start.
  #key: Buffer | undefined;
  readonly #lifetimeMs: number;

  constructor(key: string | Uint8Array | undefined, lifetimeMs: number = 10 * 60_000) {
    // A copy, as hashing it at once would have been: later changes to the caller's bytes must not change the key.
    this.#keySource = key instanceof Uint8Array ? Uint8Array.from(key) : key;
    this.#lifetimeMs = lifetimeMs;
  }

  get lifetimeMs(): number {
    return this.#lifetimeMs;
  }

  seal(payload: RequestStatePayload): string {
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    const body = Buffer.from(JSON.stringify({ ...payload, nonce: randomBytes(16).toString('base64url') })).toString(
      'base64url',
    );
    return `${body}.${this.#sign(body)}`;
  }

  /** The payload, or a -32602 saying why the state cannot be used (tampered, expired, another request or caller). */
  open(state: unknown, request: string, principal: string, now: number = Date.now()): RequestStatePayload {
    if (typeof state !== 'string')
      throw invalidParams('Invalid params: requestState must be the string the server sent');
    const dot = state.lastIndexOf('.');
    const body = dot === -1 ? '' : state.slice(0, dot);
    const signature = Buffer.from(dot === -1 ? '' : state.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.#sign(body), 'base64url');
    const { timingSafeEqual } = process.getBuiltinModule('node:crypto');
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
      throw invalidParams('Invalid params: requestState failed verification; send the request again without it');
    }
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    if (!isPlainObject(payload) || payload.request !== request) {
      throw invalidParams(
        'Invalid params: requestState belongs to a different request; send the request again without it',
      );
    }
    if (payload.principal !== principal) {
      throw invalidParams('Invalid params: requestState belongs to another caller; send the request again without it');
    }
    if (typeof payload.expiresAt !== 'number' || payload.expiresAt < now) {
      throw invalidParams('Invalid params: requestState has expired; send the request again without it');
    }
    return payload as unknown as RequestStatePayload;
  }

  #sign(body: string): string {
    const { createHash, createHmac, randomBytes } = process.getBuiltinModule('node:crypto');
    this.#key ??=
      this.#keySource === undefined ? randomBytes(32) : createHash('sha256').update(this.#keySource).digest();
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

/** A short, stable digest of a JSON value: binds answers to questions and state to requests. */
export function digestOf(value: unknown): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Where spent `requestState` nonces are recorded. Replicas behind one load
 * balancer share one (a host's state store), so that a state replayed to
 * another replica is refused there too.
 */
export interface RequestStateLedger {
  /** True the first time a nonce is spent, false on every replay. */
  spend(nonce: string, expiresAt: number): Promise<boolean>;
}

/** The ledger of one process: nonces kept until their state expires, at most `limit` of them. */
export function createMemoryRequestStateLedger(limit = 100_000): RequestStateLedger {
  const spent = new Map<string, number>();
  return {
    async spend(nonce, expiresAt) {
      if (spent.has(nonce)) return false;
      const now = Date.now();
      if (spent.size >= limit) {
        // Insertion order is expiry order, near enough: states live the same time from when they were sealed.
        for (const [old, expiry] of spent) {
          if (expiry > now && spent.size < limit) break;
          spent.delete(old);
        }
      }
      spent.set(nonce, expiresAt);
      return true;
    },
  };
}
