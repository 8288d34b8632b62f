import type { StateStore, StoreHealth } from '../state-store.ts';
import { createApprovalRows } from './approval-rows.ts';
import { type AuditRowJournal, createAuditRows } from './audit-rows.ts';
import { createIdempotencyRows } from './idempotency-rows.ts';
import { createLoginRows } from './login-rows.ts';
import { createNonceRows } from './nonce-rows.ts';
import { createParkedCallRows } from './parked-call-rows.ts';
import { createRateRows } from './rate-rows.ts';
import { DeathWatch, endDeadReplica, type ReplicaRow } from './replica-sweep.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { createTaskRows, expireTasks, type TaskLimits, type TaskWakeups } from './task-rows.ts';

/** What differs between the engines beneath the one set of tables. */
export interface EngineLink {
  readonly engine: StateStore['engine'];
  readonly location: string;
  readonly replica: string;
  /** Where audit rows are made durable before they are written to `sql` (SQLite's journal). */
  readonly auditJournal?: AuditRowJournal | undefined;
  /** Runs before each sweep looks for dead replicas (SQLite: replays the journals dead processes left). */
  beforeSweep?(): Promise<void>;
  /** Tells every replica that an approval changed. */
  announce(approvalId: string): Promise<void>;
  subscribe(listener: (approvalId: string) => void): () => void;
  /** Wakes the replica holding a task, and tells replicas a task changed. */
  readonly tasks: TaskWakeups;
  /** Whether a replica still holds its liveness lock. */
  isAlive(replica: ReplicaRow): Promise<boolean>;
  /** Whether this replica is the one that sweeps now. */
  leads(): Promise<boolean>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

export interface SweepTiming {
  /** How often the sweeper looks for dead replicas. Default 2 s. */
  sweepEveryMs?: number | undefined;
  /** How long a replica must stay dead before its calls are ended. Default 3 s. */
  deadAfterMs?: number | undefined;
}

/** The store over one SQL engine: the tables' logic is shared, the engine brings locks, wake-ups and liveness. */
export function createSqlStateStore(
  sql: SqlExecutor,
  link: EngineLink,
  options: SweepTiming & TaskLimits = {},
): StateStore {
  const watch = new DeathWatch(options.deadAfterMs ?? 3000);
  const announce = { approval: link.announce, task: (taskId: string) => link.tasks.changed(taskId) };
  const tasks = createTaskRows(sql, link.replica, link.tasks, options);
  const isAlive = async (replica: string) => {
    const row = (await sql.query<ReplicaRow>('SELECT * FROM toolshed_replicas WHERE id = $1', [replica]))[0];
    return row !== undefined && (await link.isAlive(row));
  };
  let sweeping: Promise<number> | undefined;
  const sweepOnce = async (): Promise<number> => {
    if (!(await link.leads())) return 0;
    await link.beforeSweep?.();
    const now = Date.now();
    const others = await sql.query<ReplicaRow>('SELECT * FROM toolshed_replicas WHERE id <> $1', [link.replica]);
    const dead = new Set<string>();
    let ended = 0;
    for (const row of others) {
      if (await link.isAlive(row)) continue;
      dead.add(row.id);
      if (watch.confirm(row.id, now)) ended += await endDeadReplica(sql, row.id, now, announce);
    }
    watch.keepOnly(dead);
    return ended + (await expireTasks(sql, now, link.tasks));
  };
  const sweep = () => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  const timer = setInterval(() => void sweep().catch(() => {}), options.sweepEveryMs ?? 2000);
  timer.unref();

  return {
    engine: link.engine,
    replica: link.replica,
    location: link.location,
    audit: createAuditRows(sql, link.replica, link.auditJournal),
    approvals: createApprovalRows(sql, link.replica, link.announce, link.subscribe),
    logins: createLoginRows(sql),
    rates: createRateRows(sql),
    idempotency: createIdempotencyRows(sql, link.replica),
    nonces: createNonceRows(sql),
    parkedCalls: createParkedCallRows(sql, link.replica, isAlive),
    tasks: tasks.store,
    health: () => link.health(),
    sweep,
    async close() {
      clearInterval(timer);
      await sweeping?.catch(() => {});
      await tasks.close();
      await link.close();
    },
  };
}
