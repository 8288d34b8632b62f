import type pg from 'pg';
import { approvalChannel } from '../sql/approval-rows.ts';
import { endDeadReplica } from '../sql/replica-sweep.ts';
import { migrate } from '../sql/schema-migrations.ts';
import { createSqlStateStore, type SweepTiming } from '../sql/sql-state-store.ts';
import {
  type TaskLimits,
  type TaskReceiver,
  type TaskWakeups,
  taskChannel,
  taskSignalChannel,
} from '../sql/task-rows.ts';
import type { StateStore } from '../state-store.ts';
import { StateStoreError } from '../state-store-error.ts';
import { PostgresExecutor } from './postgres-executor.ts';
import { lockNamespace, ReplicaConnection } from './replica-connection.ts';

const { hostname } = process.getBuiltinModule('node:os');
const { randomBytes, randomInt } = process.getBuiltinModule('node:crypto');
const { createRequire } = process.getBuiltinModule('node:module');

/** How often a replica holding unfinished tasks looks for their signals itself, in case a NOTIFY was lost. */
const taskPollEveryMs = 2000;

export interface PostgresStateStoreOptions extends SweepTiming, TaskLimits {
  /** `postgres://user@host:port/database`; the password comes from PGPASSWORD or ~/.pgpass when the URL has none. */
  url: string;
  /** Connections in this replica's pool, besides its own one. Default 10. */
  poolSize?: number | undefined;
  /** How long to wait for a connection before a call fails closed. Default 5 s. */
  connectTimeoutMs?: number | undefined;
}

/** The URL as it may be printed: no password, whatever the URL held. */
export function printableStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}

/**
 * The shared store: PostgreSQL through `pg`, for replicas of the host.
 * Migrations run at start under an advisory lock (replicas starting
 * together apply them once); each replica keeps a pool for its statements
 * and one connection of its own for its liveness lock, LISTEN, and the
 * sweeper's election.
 */
export async function openPostgresStateStore(options: PostgresStateStoreOptions): Promise<StateStore> {
  const location = printableStoreUrl(options.url);
  if (!/^postgres(ql)?:\/\//.test(options.url)) {
    throw new StateStoreError(`the state store URL ${location} is not a postgres:// URL`);
  }
  const driver = createRequire(import.meta.url)('pg') as typeof import('pg');
  // Row counts and millisecond times are int8, which pg gives as strings by default: numbers here, for this pool only.
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (value: string) => Number(value) : driver.types.getTypeParser(oid, format)) as never,
  };
  const settings: pg.ClientConfig = {
    connectionString: options.url,
    application_name: 'toolshed',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    types,
  };
  const pool = new driver.Pool({ ...settings, max: options.poolSize ?? 10 });
  // An idle connection the server ends (PostgreSQL restarting) must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  const sql = new PostgresExecutor(pool);
  const replica = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const lockKey = 1 + randomInt(2 ** 31 - 1);
  const listeners = new Set<(id: string) => void>();
  let taskReceiver: TaskReceiver | undefined;
  const connection = new ReplicaConnection({
    connect: async () => {
      const client = new driver.Client(settings);
      client.on('error', () => {});
      await client.connect();
      return client;
    },
    lockKey,
    channels: {
      [approvalChannel]: (id) => {
        for (const listener of listeners) listener(id);
      },
      [taskChannel]: (taskId) => taskReceiver?.changed(taskId),
      [taskSignalChannel]: (taskId) => taskReceiver?.signalled(taskId),
    },
    onUp: async () => {
      await sql.query(
        `INSERT INTO toolshed_replicas (id, lock_key, host_name, pid, process_start, started_at)
         VALUES ($1, $2, $3, $4, NULL, $5) ON CONFLICT (id) DO NOTHING`,
        [replica, lockKey, hostname(), process.pid, Date.now()],
      );
    },
  });
  try {
    await migrate(sql);
    await connection.open();
  } catch (error) {
    await connection.close();
    await pool.end().catch(() => {});
    if (StateStoreError.isInstance(error)) throw error;
    throw new StateStoreError(`the state store at ${location} cannot be used: ${(error as Error).message}`);
  }
  const notify = async (channel: string, payload: string) => {
    await sql.query('SELECT pg_notify($1, $2)', [channel, payload]);
  };
  const announce = (id: string) => notify(approvalChannel, id);
  const tasks: TaskWakeups = {
    // NOTIFY wakes the holder at once; the poll only covers a notification lost while its connection was down.
    pollEveryMs: taskPollEveryMs,
    async signalled(taskId, holder) {
      if (holder === replica) taskReceiver?.signalled(taskId);
      else await notify(taskSignalChannel, taskId);
    },
    // Every replica hears it, this one included: its listeners are told once, by the notification.
    changed: (taskId) => notify(taskChannel, taskId),
    listen(receiver) {
      taskReceiver = receiver;
      return () => {
        taskReceiver = undefined;
      };
    },
  };
  return createSqlStateStore(
    sql,
    {
      engine: 'postgres',
      location,
      replica,
      announce,
      tasks,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      async isAlive(row) {
        const result = await sql.query<{ held: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int8::oid
             AND objid = $2::int8::oid AND objsubid = 2 AND granted) AS held`,
          [lockNamespace, Number(row.lock_key)],
        );
        return result[0]?.held === true;
      },
      leads: () => connection.leads(),
      async health() {
        if (!connection.up) {
          return {
            ok: false,
            reason: `the state store at ${location} is not reachable (${connection.lastError ?? 'reconnecting'})`,
          };
        }
        try {
          await sql.query('SELECT 1');
          return { ok: true };
        } catch (error) {
          return { ok: false, reason: `the state store at ${location} is not reachable (${(error as Error).message})` };
        }
      },
      async close() {
        await endDeadReplica(sql, replica, Date.now(), { approval: announce, task: tasks.changed }).catch(() => {});
        await connection.close();
        await pool.end().catch(() => {});
      },
    },
    options,
  );
}
