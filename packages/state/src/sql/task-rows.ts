import type { TaskChange, TaskRecord, TaskSignal, TaskStatus, TaskStore } from '@toolshed/mcp-core';
import type { SqlExecutor } from './sql-executor.ts';
import { TaskSignalDelivery } from './task-signal-delivery.ts';

type TaskRow = {
  task_id: string;
  principal: string;
  replica: string;
  status: string;
  status_message: string | null;
  created_at: number;
  updated_at: number;
  ttl_ms: number;
  input_requests: string | null;
  result: string | null;
  error: string | null;
};

/** The channel a task's change is announced on, and the one its waiting signals are; NOTIFY carries the task id only. */
export const taskChannel = 'toolshed_task';
export const taskSignalChannel = 'toolshed_task_signal';

/** What a task run by a replica that died says, as its status message and its JSON-RPC error. */
export const replicaStoppedMessage = 'The replica running this task stopped before it finished; call the tool again';
/** What a task still unfinished when its time to live passed says. */
export const timeToLivePassedMessage = "The task's time to live passed before it finished; call the tool again";

/** Unfinished tasks one replica may run at once, unless told otherwise. */
const defaultMaxRunningTasks = 10_000;
/**
 * How long a finished task stays unchanged past its time to live before it is
 * forgotten: a task failed because its time passed stays readable that long,
 * and the replica still running it has that long to take its cancel.
 */
const finishedKeptMs = 60_000;

const unfinished = "status IN ('working', 'input_required')";
const finished = "status IN ('completed', 'failed', 'cancelled')";

function isUnfinished(status: string): boolean {
  return status === 'working' || status === 'input_required';
}

function failedAs(message: string): [string, string] {
  return [message, JSON.stringify({ code: -32603, message })];
}

function recordOf(row: TaskRow): TaskRecord {
  return {
    taskId: row.task_id,
    principal: row.principal,
    status: row.status as TaskStatus,
    ...(row.status_message === null ? {} : { statusMessage: row.status_message }),
    createdAt: Number(row.created_at),
    lastUpdatedAt: Number(row.updated_at),
    ttlMs: Number(row.ttl_ms),
    ...(row.input_requests === null
      ? {}
      : { inputRequests: JSON.parse(row.input_requests) as NonNullable<TaskRecord['inputRequests']> }),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as Record<string, unknown> }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) as NonNullable<TaskRecord['error']> }),
  };
}

const jsonOrNull = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** What a replica is told of tasks by the others (or by itself). */
export interface TaskReceiver {
  /** A signal for a task waits in the store. */
  signalled(taskId: string): void;
  changed(taskId: string): void;
}

/** How an engine carries task wake-ups between replicas. */
export interface TaskWakeups {
  /** Tells the replica `holder` that a signal for its task waits in the store. */
  signalled(taskId: string, holder: string): Promise<void>;
  /** Tells every replica that listens that a task changed. */
  changed(taskId: string): Promise<void>;
  /** This replica's receiver; returns the function that stops it. */
  listen(receiver: TaskReceiver): () => void;
  /** How often a replica holding unfinished tasks looks for signals by itself: the longest a lost wake-up delays one. */
  readonly pollEveryMs: number;
}

export interface TaskLimits {
  /** Unfinished tasks this replica runs at once, at most; a call beyond it is answered without a task. Default 10,000. */
  maxRunningTasks?: number | undefined;
}

const setChange = 'status = $2, status_message = $3, input_requests = $4, result = $5, error = $6, updated_at = $7';
const progressTask = `UPDATE toolshed_tasks SET ${setChange} WHERE task_id = $1 AND ${unfinished} RETURNING task_id`;
/** A task's last write: signals still waiting for it are no longer needed. */
const finishTask = `UPDATE toolshed_tasks SET ${setChange}, pending_responses = NULL,
  cancel_requested = CASE WHEN cancel_requested = 1 THEN 2 ELSE cancel_requested END
  WHERE task_id = $1 AND ${unfinished} RETURNING task_id`;

/**
 * Takes the signals waiting for this replica's tasks. Each row is taken by
 * one conditional update that names the values just read, so a signal that
 * arrives in between is neither lost nor taken twice: that row is left for
 * the next take, which the new signal's wake-up starts.
 */
async function takeSignals(sql: SqlExecutor, replica: string): Promise<TaskSignal[]> {
  const rows = await sql.query<{ task_id: string; cancel_requested: number; pending_responses: string | null }>(
    `SELECT task_id, cancel_requested, pending_responses FROM toolshed_tasks
     WHERE replica = $1 AND (cancel_requested = 1 OR pending_responses IS NOT NULL)`,
    [replica],
  );
  const signals: TaskSignal[] = [];
  for (const row of rows) {
    const taken = await sql.query(
      `UPDATE toolshed_tasks SET pending_responses = NULL,
         cancel_requested = CASE WHEN cancel_requested = 1 THEN 2 ELSE cancel_requested END
       WHERE task_id = $1 AND cancel_requested = $2 AND COALESCE(pending_responses, '') = $3 RETURNING task_id`,
      [row.task_id, row.cancel_requested, row.pending_responses ?? ''],
    );
    if (taken.length === 0) continue;
    if (row.pending_responses !== null) {
      const responses = JSON.parse(row.pending_responses) as Record<string, unknown>;
      signals.push({ taskId: row.task_id, kind: 'input', responses });
    }
    if (Number(row.cancel_requested) === 1) signals.push({ taskId: row.task_id, kind: 'cancel' });
  }
  return signals;
}

/**
 * Tasks as rows, readable from every replica; the replica that created a
 * task runs it and is its holder. A cancel is a flag and answers a JSON
 * object in the task's row, which the holder takes once (see
 * `TaskSignalDelivery`); the engine wakes it with `wakeups`.
 */
export function createTaskRows(
  sql: SqlExecutor,
  replica: string,
  wakeups: TaskWakeups,
  limits: TaskLimits = {},
): { store: TaskStore; close(): Promise<void> } {
  const delivery = new TaskSignalDelivery(() => takeSignals(sql, replica), {
    pollEveryMs: wakeups.pollEveryMs,
    limit: limits.maxRunningTasks ?? defaultMaxRunningTasks,
  });
  const changeListeners = new Set<(taskId: string) => void>();
  const stopListening = wakeups.listen({
    signalled(taskId) {
      if (delivery.holds(taskId)) delivery.wake();
    },
    changed(taskId) {
      for (const listener of changeListeners) listener(taskId);
    },
  });

  const store: TaskStore = {
    async create(task) {
      const held = isUnfinished(task.status);
      if (held) delivery.hold(task.taskId);
      try {
        await sql.query(
          `INSERT INTO toolshed_tasks (task_id, principal, replica, status, status_message, created_at, updated_at,
             ttl_ms, input_requests, result, error)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            task.taskId,
            task.principal,
            replica,
            task.status,
            task.statusMessage ?? null,
            task.createdAt,
            task.lastUpdatedAt,
            task.ttlMs,
            jsonOrNull(task.inputRequests),
            jsonOrNull(task.result),
            jsonOrNull(task.error),
          ],
        );
      } catch (error) {
        if (held) delivery.release(task.taskId);
        throw error;
      }
    },
    async get(taskId) {
      const row = (await sql.query<TaskRow>('SELECT * FROM toolshed_tasks WHERE task_id = $1', [taskId]))[0];
      if (row === undefined) return undefined;
      const now = Date.now();
      // What the sweep is about to forget is forgotten already.
      const forgotten =
        !isUnfinished(row.status) &&
        Number(row.created_at) + Number(row.ttl_ms) < now &&
        Number(row.updated_at) < now - finishedKeptMs;
      return forgotten ? undefined : recordOf(row);
    },
    async update(taskId: string, change: TaskChange, at: number) {
      const finishing = !isUnfinished(change.status);
      try {
        const changed = await sql.query(finishing ? finishTask : progressTask, [
          taskId,
          change.status,
          change.statusMessage ?? null,
          jsonOrNull(change.inputRequests),
          jsonOrNull(change.result),
          jsonOrNull(change.error),
          at,
        ]);
        if (changed.length === 1) await wakeups.changed(taskId);
      } finally {
        // Even when the store already had it finished (its time passed), the work here is over.
        if (finishing) delivery.release(taskId);
      }
    },
    async signal(signal) {
      const { taskId } = signal;
      if (signal.kind === 'cancel') {
        const asked = await sql.query<{ replica: string }>(
          `UPDATE toolshed_tasks SET cancel_requested = 1 WHERE task_id = $1 AND cancel_requested = 0 AND ${unfinished}
           RETURNING replica`,
          [taskId],
        );
        for (const row of asked) await wakeups.signalled(taskId, row.replica);
        return;
      }
      // Answers merge into those still waiting. Senders of answers to one task take turns (the task's lock), and the
      // write names what was read, so the holder taking the answers in between makes it read again rather than
      // hand them over twice.
      const holder = await sql.transaction(async (query) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const row = (
            await query.query<{ replica: string; status: string; pending_responses: string | null }>(
              'SELECT replica, status, pending_responses FROM toolshed_tasks WHERE task_id = $1',
              [taskId],
            )
          )[0];
          if (row === undefined || !isUnfinished(row.status)) return undefined;
          const waiting = row.pending_responses === null ? {} : (JSON.parse(row.pending_responses) as object);
          // An answer already waiting for the same question stays: it is the one the holder would have taken first.
          const merged = JSON.stringify({ ...signal.responses, ...waiting });
          const stored = await query.query(
            `UPDATE toolshed_tasks SET pending_responses = $2
             WHERE task_id = $1 AND ${unfinished} AND COALESCE(pending_responses, '') = $3 RETURNING task_id`,
            [taskId, merged, row.pending_responses ?? ''],
          );
          if (stored.length === 1) return row.replica;
        }
        throw new Error(`the answers for task ${taskId} could not be stored: its replica kept taking others meanwhile`);
      }, `task:${taskId}`);
      if (holder !== undefined) await wakeups.signalled(taskId, holder);
    },
    onSignal: (listener) => delivery.listen(listener),
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
  return {
    store,
    async close() {
      stopListening();
      await delivery.close();
    },
  };
}

/** Fails the unfinished tasks of a replica that died: nobody runs them any more. Returns their ids. */
export async function failTasksOfReplica(sql: SqlExecutor, replica: string, now: number): Promise<string[]> {
  const rows = await sql.query<{ task_id: string }>(
    `UPDATE toolshed_tasks SET status = 'failed', status_message = $2, error = $3, updated_at = $4,
       input_requests = NULL, pending_responses = NULL
     WHERE replica = $1 AND ${unfinished} RETURNING task_id`,
    [replica, ...failedAs(replicaStoppedMessage), now],
  );
  return rows.map((row) => row.task_id);
}

/**
 * Ends tasks whose time to live has passed: unfinished ones fail, saying
 * so, and their holder is asked to cancel the work nobody can read any
 * more; finished ones are deleted once unchanged for a while. Returns the
 * rows changed.
 */
export async function expireTasks(sql: SqlExecutor, now: number, wakeups: TaskWakeups): Promise<number> {
  const [message, error] = failedAs(timeToLivePassedMessage);
  const failed = await sql.query<{ task_id: string; replica: string }>(
    `UPDATE toolshed_tasks SET status = 'failed', status_message = $2, error = $3, updated_at = $1,
       input_requests = NULL, pending_responses = NULL,
       cancel_requested = CASE WHEN cancel_requested = 2 THEN 2 ELSE 1 END
     WHERE created_at + ttl_ms < $1 AND ${unfinished} RETURNING task_id, replica`,
    [now, message, error],
  );
  const deleted = await sql.query<{ task_id: string }>(
    `DELETE FROM toolshed_tasks WHERE created_at + ttl_ms < $1 AND updated_at < $2 AND ${finished} RETURNING task_id`,
    [now, now - finishedKeptMs],
  );
  for (const row of failed) {
    await wakeups.signalled(row.task_id, row.replica);
    await wakeups.changed(row.task_id);
  }
  return failed.length + deleted.length;
}
