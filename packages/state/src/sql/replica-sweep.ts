import type { SqlExecutor } from './sql-executor.ts';
import { failTasksOfReplica } from './task-rows.ts';

export type ReplicaRow = {
  id: string;
  lock_key: number;
  host_name: string;
  pid: number;
  process_start: string | null;
};

/** Who is told of the rows a dead replica's end changed. */
export interface EndedRowsAnnouncer {
  approval(approvalId: string): Promise<void>;
  task(taskId: string): Promise<void>;
}

/**
 * Ends what a dead replica left: its calls still `started` become
 * `interrupted`, its waiting approvals `interrupted` (nobody waits for them
 * any more), its sends under way `uncertain` (the message may have left),
 * its unfinished tasks `failed` (nobody runs them any more, and a client
 * polling one must not see it working forever), and its parked calls are
 * forgotten. Returns the rows changed.
 */
export async function endDeadReplica(
  sql: SqlExecutor,
  replica: string,
  now: number,
  announce: EndedRowsAnnouncer,
): Promise<number> {
  const audit = await sql.query(
    `UPDATE toolshed_audit SET outcome = 'interrupted', finished_at = $2,
       error = 'the replica running it stopped before the call ended'
     WHERE replica = $1 AND outcome = 'started' RETURNING id`,
    [replica, now],
  );
  const approvals = await sql.query<{ id: string }>(
    `UPDATE toolshed_approvals SET decision = 'interrupted', decided_at = $2
     WHERE replica = $1 AND decision IS NULL RETURNING id`,
    [replica, now],
  );
  const sends = await sql.query(
    `UPDATE toolshed_idempotency_keys SET state = 'uncertain', updated_at = $2
     WHERE replica = $1 AND state = 'sending' RETURNING key`,
    [replica, now],
  );
  const tasks = await failTasksOfReplica(sql, replica, now);
  await sql.query('DELETE FROM toolshed_parked_calls WHERE replica = $1', [replica]);
  await sql.query('DELETE FROM toolshed_replicas WHERE id = $1', [replica]);
  for (const approval of approvals) await announce.approval(approval.id);
  for (const task of tasks) await announce.task(task);
  return audit.length + approvals.length + sends.length + tasks.length;
}

/**
 * Tells a dead replica from one whose lock is only briefly free (the
 * store restarting, a connection being rebuilt): a replica is ended only
 * after it was seen dead on two sweeps at least `graceMs` apart.
 */
export class DeathWatch {
  readonly #suspects = new Map<string, number>();
  readonly #graceMs: number;

  constructor(graceMs: number) {
    this.#graceMs = graceMs;
  }

  /** Whether a replica seen dead now has been dead long enough. */
  confirm(replica: string, now: number): boolean {
    if (this.#graceMs <= 0) return true;
    const since = this.#suspects.get(replica);
    if (since === undefined) this.#suspects.set(replica, now);
    return since !== undefined && now - since >= this.#graceMs;
  }

  /** Forgets every suspect not in `seen` (alive again, or ended). */
  keepOnly(seen: ReadonlySet<string>): void {
    for (const replica of this.#suspects.keys()) if (!seen.has(replica)) this.#suspects.delete(replica);
  }
}
