import { endDeadReplica } from '../sql/replica-sweep.ts';
import { migrate } from '../sql/schema-migrations.ts';
import { createSqlStateStore, type SweepTiming } from '../sql/sql-state-store.ts';
import type { TaskLimits, TaskReceiver, TaskWakeups } from '../sql/task-rows.ts';
import type { StateStore } from '../state-store.ts';
import { StateStoreError } from '../state-store-error.ts';
import { AuditJournal } from './audit-journal.ts';
import { processRuns, processStart } from './process-identity.ts';
import { SqliteExecutor } from './sqlite-executor.ts';

const { mkdirSync, chmodSync } = process.getBuiltinModule('node:fs');
const { dirname, resolve } = process.getBuiltinModule('node:path');
const { hostname } = process.getBuiltinModule('node:os');
const { randomBytes, randomInt } = process.getBuiltinModule('node:crypto');
const { createRequire } = process.getBuiltinModule('node:module');

export interface SqliteStateStoreOptions extends SweepTiming, TaskLimits {
  /** The database file; its directory is made, readable by its owner only. */
  path: string;
}

/** How often a process holding unfinished tasks looks for signals other processes on the file left for them. */
const taskPollEveryMs = 100;

/**
 * One connection per file in a process, however many stores open it: two
 * connections of one process would wait on each other's write lock with the
 * event loop blocked (better-sqlite3 waits synchronously), while one
 * connection's transactions simply queue. Other processes wait their turn
 * through busy_timeout. The stores of one file in one process are woken
 * directly for each other's task signals and changes, by replica id.
 */
const sharedConnections = new Map<
  string,
  {
    sql: SqliteExecutor;
    journal: AuditJournal;
    taskReceivers: Map<string, TaskReceiver>;
    close(): Promise<void>;
    users: number;
  }
>();

function openShared(path: string): {
  sql: SqliteExecutor;
  journal: AuditJournal;
  taskReceivers: Map<string, TaskReceiver>;
  release(): Promise<void>;
} {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const key = resolve(path);
  let shared = sharedConnections.get(key);
  if (shared === undefined) {
    // better-sqlite3 is CommonJS and a native addon: loaded when a store is opened, not when the package is imported.
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
    const database = new Database(path);
    try {
      chmodSync(path, 0o600);
    } catch {
      // A file the user does not own keeps its mode: the owner chose who reads it.
    }
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    const sql = new SqliteExecutor(database);
    const journal = new AuditJournal(path, sql);
    shared = {
      sql,
      journal,
      taskReceivers: new Map(),
      async close() {
        await journal.close();
        database.close();
      },
      users: 0,
    };
    sharedConnections.set(key, shared);
  }
  const entry = shared;
  entry.users += 1;
  let released = false;
  return {
    sql: entry.sql,
    journal: entry.journal,
    taskReceivers: entry.taskReceivers,
    async release() {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users === 0) {
        sharedConnections.delete(key);
        await entry.close();
      }
    },
  };
}

/**
 * The embedded store: one SQLite file in WAL mode, for a host on one
 * machine. Writes are durable when their promise settles, across a crash of
 * the process (synchronous=NORMAL keeps WAL commits safe from everything but
 * a power cut). Processes sharing the file are told apart by pid and start
 * time: one that is gone is ended by the next sweep, with no grace period
 * (a pid that stopped running does not come back).
 */
export async function openSqliteStateStore(options: SqliteStateStoreOptions): Promise<StateStore> {
  let opened: ReturnType<typeof openShared>;
  try {
    opened = openShared(options.path);
  } catch (error) {
    throw new StateStoreError(`the state store at ${options.path} cannot be used: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const { sql, journal, taskReceivers, release } = opened;
  await migrate(sql);
  const replica = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  await sql.query(
    `INSERT INTO toolshed_replicas (id, lock_key, host_name, pid, process_start, started_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [replica, randomInt(2 ** 31), hostname(), process.pid, processStart(process.pid) ?? null, Date.now()],
  );
  const listeners = new Set<(id: string) => void>();
  // Another process on the file is not woken: its poll finds the signal within taskPollEveryMs.
  const tasks: TaskWakeups = {
    pollEveryMs: taskPollEveryMs,
    async signalled(taskId, holder) {
      taskReceivers.get(holder)?.signalled(taskId);
    },
    async changed(taskId) {
      for (const receiver of taskReceivers.values()) receiver.changed(taskId);
    },
    listen(receiver) {
      taskReceivers.set(replica, receiver);
      return () => taskReceivers.delete(replica);
    },
  };
  const store = createSqlStateStore(
    sql,
    {
      engine: 'sqlite',
      location: options.path,
      replica,
      auditJournal: journal,
      beforeSweep: () => AuditJournal.replayOrphans(options.path, sql),
      async announce(id) {
        for (const listener of listeners) listener(id);
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      tasks,
      // Another machine's process cannot be seen from here: it counts as alive, and its rows are left to it.
      isAlive: async (row) => row.host_name !== hostname() || processRuns(Number(row.pid), row.process_start),
      leads: async () => true,
      async health() {
        try {
          await sql.query('SELECT 1');
          return { ok: true };
        } catch (error) {
          return { ok: false, reason: `the state file ${options.path} cannot be read: ${(error as Error).message}` };
        }
      },
      async close() {
        // Whatever is still open is ended as a dead replica's would be: nothing is left `started` for nobody.
        await journal.apply();
        const announce = { approval: async () => {}, task: tasks.changed };
        await endDeadReplica(sql, replica, Date.now(), announce).catch(() => {});
        await release();
      },
    },
    {
      sweepEveryMs: options.sweepEveryMs,
      deadAfterMs: options.deadAfterMs ?? 0,
      maxRunningTasks: options.maxRunningTasks,
    },
  );
  // What a previous run of this host left unfinished is ended now, before anything new starts.
  await store.sweep();
  return store;
}
