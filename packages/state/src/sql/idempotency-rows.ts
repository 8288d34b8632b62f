import type { IdempotencyRecord, IdempotencyState, IdempotencyStore } from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';

type KeyRow = { fingerprint: string; state: string; outcome: string | null; expires_at: number };

function recordOf(row: KeyRow): IdempotencyRecord {
  return {
    fingerprint: row.fingerprint,
    state: row.state as IdempotencyState,
    ...(row.outcome === null ? {} : { outcome: JSON.parse(row.outcome) as unknown }),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * Idempotency keys as rows, claimed by one conditional insert: of two
 * replicas claiming the same key at once, one inserts and the other finds
 * the row. A key whose send failed for sure, or that expired, is claimed
 * again by one conditional update.
 */
export function createIdempotencyRows(sql: SqlExecutor, replica: string): IdempotencyStore {
  const recall = async (scope: string, key: string, now: number) => {
    const rows = await sql.query<KeyRow>(
      'SELECT fingerprint, state, outcome, expires_at FROM toolshed_idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at > $3',
      [scope, key, now],
    );
    return rows.map(recordOf)[0];
  };
  let claimsSinceCleanup = 0;
  return {
    recall,
    async claim(scope, key, fingerprint, expiresAt, now) {
      // Keys live a day: every thousandth claim drops the expired ones, as new ones come.
      if (++claimsSinceCleanup >= 1000) {
        claimsSinceCleanup = 0;
        await sql.query(`DELETE FROM toolshed_idempotency_keys WHERE expires_at <= $1 AND state <> 'sending'`, [now]);
      }
      const inserted = await sql.query(
        `INSERT INTO toolshed_idempotency_keys (scope, key, fingerprint, state, replica, expires_at, updated_at)
         VALUES ($1, $2, $3, 'sending', $4, $5, $6) ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
        [scope, key, fingerprint, replica, expiresAt, now],
      );
      if (inserted.length === 1) return { kind: 'claimed' };
      const reclaimed = await sql.query(
        `UPDATE toolshed_idempotency_keys
         SET fingerprint = $3, state = 'sending', outcome = NULL, replica = $4, expires_at = $5, updated_at = $6
         WHERE scope = $1 AND key = $2 AND (expires_at <= $6 OR (state = 'failed' AND fingerprint = $3))
         RETURNING key`,
        [scope, key, fingerprint, replica, expiresAt, now],
      );
      if (reclaimed.length === 1) return { kind: 'claimed' };
      const record = await recall(scope, key, now);
      // Gone between the two statements (expired and reclaimed by another): it is held by that one.
      return { kind: 'held', record: record ?? { fingerprint: '', state: 'sending', expiresAt } };
    },
    async settle(scope, key, state, outcome) {
      await sql.query(
        'UPDATE toolshed_idempotency_keys SET state = $3, outcome = $4, updated_at = $5 WHERE scope = $1 AND key = $2',
        [scope, key, state, outcome === undefined ? null : JSON.stringify(outcome), Date.now()],
      );
    },
  };
}
