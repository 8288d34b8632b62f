/**
 * @module
 * One state store for Model Context Protocol hosts and servers: what they
 * promise (audit records, approvals decided once, console logins, rate
 * budgets, idempotency keys, spent nonces, parked calls, tasks) kept in
 * SQLite on one machine or in PostgreSQL shared by replicas, behind one
 * contract.
 */
export { defaultStatePath, type OpenStateStoreOptions, openStateStore } from './open-state-store.ts';
export { printableStoreUrl } from './postgres/postgres-state-store.ts';
export type {
  ApprovalDecision,
  ApprovalRecord,
  ApprovalRequestRecord,
  ApprovalStore,
  AuditApproval,
  AuditCompletion,
  AuditOutcome,
  AuditQuery,
  AuditQueryResult,
  AuditRecord,
  AuditStart,
  AuditStore,
  DecisionRefusal,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyState,
  IdempotencyStore,
  LoginStore,
  NonceStore,
  ParkedCallStore,
  RateStore,
  RateTake,
  RateWindow,
  SessionRecord,
  StateStore,
  StoreHealth,
  TokenRecord,
} from './state-store.ts';
export { StateStoreError } from './state-store-error.ts';
