import type { ParkedCallStore } from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';

/** Which replica holds a call parked between a caller's retries, and whether it still lives. */
export function createParkedCallRows(
  sql: SqlExecutor,
  replica: string,
  isAlive: (replica: string) => Promise<boolean>,
): ParkedCallStore {
  return {
    async hold(key, expiresAt, endpoint) {
      await sql.query(
        `INSERT INTO toolshed_parked_calls (key, replica, expires_at, endpoint) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET replica = excluded.replica, expires_at = excluded.expires_at,
           endpoint = excluded.endpoint`,
        [key, replica, expiresAt, endpoint ?? null],
      );
    },
    async holder(key, now) {
      const row = (
        await sql.query<{ replica: string; endpoint: string | null }>(
          'SELECT replica, endpoint FROM toolshed_parked_calls WHERE key = $1 AND expires_at > $2',
          [key, now],
        )
      )[0];
      if (row === undefined) return undefined;
      const alive = row.replica === replica || (await isAlive(row.replica));
      return { replica: row.replica, alive, ...(row.endpoint === null ? {} : { endpoint: row.endpoint }) };
    },
    async release(key) {
      await sql.query('DELETE FROM toolshed_parked_calls WHERE key = $1 AND replica = $2', [key, replica]);
    },
  };
}
