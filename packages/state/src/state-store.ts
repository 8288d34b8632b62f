/**
 * The contract every engine keeps. Each method is one promise a host makes
 * to its users (an approval decided once, an audit row for every call, a
 * rate budget counted once for all replicas, a message sent once), kept in
 * one store rather than in a process's memory, so that it holds across
 * replicas and across a process killed at any moment.
 *
 * Times are milliseconds since the epoch from the caller's clock, passed in,
 * so that tests can move time; replicas that share a store should share a
 * clock (NTP).
 */

import type { TaskStore } from '@toolshed/mcp-core';

/**
 * How a call ended, as the audit record has it; `started` until it ends, `interrupted` when its replica died
 * first, `input_required` when a 2026-era attempt ended to ask its caller (the retry with the answer is a row
 * of its own).
 */
export type AuditOutcome =
  | 'started'
  | 'ok'
  | 'tool_error'
  | 'error'
  | 'cancelled'
  | 'timeout'
  | 'rate_limited'
  | 'refused'
  | 'input_required'
  | 'interrupted';

export type AuditApproval =
  | 'not_required'
  | 'waived'
  | 'approved'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'unavailable'
  | 'asked'
  | 'pending';

/** One call as the audit record holds it. */
export interface AuditRecord {
  id: string;
  /** The replica that ran it. */
  replica: string;
  /** When it started, ISO 8601. */
  time: string;
  caller: string;
  server: string;
  tool: string;
  upstream_tool: string;
  arguments_sha256: string;
  approval: AuditApproval;
  outcome: AuditOutcome;
  duration_ms?: number | undefined;
  error?: string | undefined;
  /** The W3C trace id (32 hex digits) of the call's trace, when telemetry was on. */
  trace_id?: string | undefined;
}

export type AuditStart = Omit<AuditRecord, 'outcome' | 'duration_ms' | 'error' | 'replica'>;

export interface AuditCompletion {
  approval: AuditApproval;
  outcome: Exclude<AuditOutcome, 'started' | 'interrupted'>;
  duration_ms: number;
  error?: string | undefined;
}

export interface AuditQuery {
  server?: string | undefined;
  /** Part of the tool's name, any case. */
  tool?: string | undefined;
  outcome?: string | undefined;
  /** The calls of one trace (its W3C trace id). */
  traceId?: string | undefined;
  /** ISO times, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** Rows to skip, newest first. */
  offset?: number | undefined;
  limit: number;
}

export interface AuditQueryResult {
  records: AuditRecord[];
  /** Rows that pass the filter. */
  matching: number;
  /** Every row. */
  total: number;
  servers: string[];
}

export interface AuditStore {
  /** Records that a call starts; resolves once the row is stored (writes are batched). */
  begin(record: AuditStart): Promise<void>;
  /** Records how the call ended; resolves once stored. An `interrupted` row it finds is corrected. */
  complete(id: string, completion: AuditCompletion): Promise<void>;
  query(query: AuditQuery): Promise<AuditQueryResult>;
}

/** A call waiting for a human's decision. */
export interface ApprovalRecord {
  /** Unguessable: the console's forms name the request by it. */
  readonly id: string;
  /** The replica where the call waits. */
  readonly replica: string;
  /** Who made the call, as the audit record names it. */
  readonly caller: string;
  readonly server: string;
  /** The tool as clients see it. */
  readonly tool: string;
  readonly upstreamTool: string;
  /** The exact arguments, shown to the human. */
  readonly arguments: Record<string, unknown>;
  readonly argumentsDigest: string;
  readonly reason: string;
  readonly preview?: string | undefined;
  /** What finds the request again when the caller retries the same call (caller, tool, arguments). */
  readonly retryKey?: string | undefined;
  readonly requestedAt: number;
  readonly expiresAt: number;
  readonly decision?: ApprovalDecision | undefined;
  readonly decidedBy?: string | undefined;
  /** When an approved call was run; an approval runs one call. */
  readonly usedAt?: number | undefined;
}

export type ApprovalDecision = 'approved' | 'denied' | 'expired' | 'cancelled' | 'interrupted';

export type ApprovalRequestRecord = Omit<
  ApprovalRecord,
  'id' | 'replica' | 'decision' | 'decidedBy' | 'usedAt' | 'requestedAt'
>;

/** Why a decision was not taken. */
export type DecisionRefusal = 'unknown' | 'already_decided' | 'expired' | 'mismatch';

export interface ApprovalStore {
  create(request: ApprovalRequestRecord, now: number): Promise<ApprovalRecord>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Undecided and unexpired requests, oldest first, from every replica. */
  pending(now: number): Promise<ApprovalRecord[]>;
  /**
   * A human's decision, taken once: one conditional update, so two people
   * deciding at once on two replicas produce one decision. It must name the
   * tool and argument digest the human was shown.
   */
  decide(
    id: string,
    decision: { tool: string; argumentsDigest: string; approve: boolean; by: string },
    now: number,
  ): Promise<{ ok: true } | { ok: false; refusal: DecisionRefusal }>;
  /** Ends an undecided request (`expired`, `cancelled`); returns the decision the request ended with, whoever took it. */
  settle(id: string, decision: 'expired' | 'cancelled', now: number): Promise<ApprovalDecision | undefined>;
  /** The newest request for the same retried call that is waiting or approved and unused. */
  findForRetry(retryKey: string, now: number): Promise<ApprovalRecord | undefined>;
  /** Marks an approved request used; true for the one caller that may run the call. */
  use(id: string, now: number): Promise<boolean>;
  /** Calls `listener` with a request's id when it is decided or settled on any replica. */
  onChange(listener: (id: string) => void): () => void;
}

/** A console token as it is kept: who it is for and its SHA-256, never the token itself. */
export interface TokenRecord {
  id: string;
  user: string;
  label: string;
  sha256: string;
  createdAt: string;
  lastUsedAt?: string | undefined;
}

/** A logged-in browser. */
export interface SessionRecord {
  readonly id: string;
  readonly user: string;
  /** The token it logged in with: revoking the token ends the session. */
  readonly tokenId: string;
  /** Every form of this session carries it. */
  readonly csrf: string;
}

export interface LoginStore {
  tokens(): Promise<TokenRecord[]>;
  /** Stores a token by its digest; the secret itself is never given to the store. */
  addToken(token: TokenRecord): Promise<void>;
  /** Revokes a token: every session opened with it ends at its next request, on every replica. */
  revokeToken(id: string): Promise<boolean>;
  /** The token whose digest this is, touched at most once a minute. */
  findToken(sha256: string, now: number): Promise<TokenRecord | undefined>;
  /** Opens a session; `id` and `csrf` are secrets, and only the id's digest is stored. */
  openSession(session: SessionRecord, now: number): Promise<void>;
  /** The live session a cookie names, touched; idle ones and those of revoked tokens are gone. */
  findSession(id: string, idleLimitMs: number, now: number): Promise<SessionRecord | undefined>;
  closeSession(id: string): Promise<void>;
}

export interface RateWindow {
  limit: number;
  windowMs: number;
}

export type RateTake = { allowed: true } | { allowed: false; window: RateWindow; retryAfterMs: number };

export interface RateStore {
  /**
   * Takes one call from the budget `key` if every window allows it: exact
   * over any sliding window, for every replica at once.
   */
  take(key: string, windows: readonly RateWindow[], now: number): Promise<RateTake>;
  /** The same answer without taking anything. */
  check(key: string, windows: readonly RateWindow[], now: number): Promise<RateTake>;
}

/** Where a send stands: under way, done, done or not (the connection dropped after the message was handed over), or surely not done. */
export type IdempotencyState = 'sending' | 'sent' | 'uncertain' | 'failed';

export interface IdempotencyRecord {
  fingerprint: string;
  state: IdempotencyState;
  /** What the first send answered, as JSON the caller understands. */
  outcome?: unknown;
  expiresAt: number;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'held'; record: IdempotencyRecord };

export interface IdempotencyStore {
  /** What `key` holds, if anything unexpired. */
  recall(scope: string, key: string, now: number): Promise<IdempotencyRecord | undefined>;
  /**
   * Claims `key` for one send (`sending`) unless it already holds one: the
   * same key through two replicas at once is claimed once. A `failed` key is
   * claimed again.
   */
  claim(scope: string, key: string, fingerprint: string, expiresAt: number, now: number): Promise<IdempotencyClaim>;
  /** Records how the send ended. */
  settle(scope: string, key: string, state: Exclude<IdempotencyState, 'sending'>, outcome: unknown): Promise<void>;
}

export interface NonceStore {
  /** Spends a single-use value; true the first time, false on every replay, on any replica. */
  spend(nonce: string, expiresAt: number, now: number): Promise<boolean>;
}

/** Which replica holds a call parked between a caller's retries. */
export interface ParkedCallStore {
  /** `endpoint`: where this replica answers requests, for a retry that reaches another one to be relayed to. */
  hold(key: string, expiresAt: number, endpoint?: string): Promise<void>;
  /** The replica holding the call, whether that replica is alive, and where it answers when it said. */
  holder(
    key: string,
    now: number,
  ): Promise<{ replica: string; alive: boolean; endpoint?: string | undefined } | undefined>;
  release(key: string): Promise<void>;
}

export type StoreHealth = { ok: true } | { ok: false; reason: string };

export interface StateStore {
  readonly engine: 'sqlite' | 'postgres';
  /** This process's replica id. */
  readonly replica: string;
  /** Where the store is, with no password: a file path or a URL. */
  readonly location: string;
  readonly audit: AuditStore;
  readonly approvals: ApprovalStore;
  readonly logins: LoginStore;
  readonly rates: RateStore;
  readonly idempotency: IdempotencyStore;
  readonly nonces: NonceStore;
  readonly parkedCalls: ParkedCallStore;
  /**
   * Tasks of the MCP tasks extension (`tasks.store` of a server), shared by
   * replicas: a task runs on the replica that created it and is read from
   * any; a cancel or answers sent to any replica reach the one running it.
   */
  readonly tasks: TaskStore;
  /** Whether the store answers now. */
  health(): Promise<StoreHealth>;
  /**
   * Finds replicas that died (their lock released) and ends what they left:
   * started audit rows and waiting approvals become `interrupted`, sends
   * under way become `uncertain`, unfinished tasks `failed`. Also ends tasks
   * whose time to live has passed. Runs by itself on an interval; callable
   * for tests.
   */
  sweep(): Promise<number>;
  close(): Promise<void>;
}
