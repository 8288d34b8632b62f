import type { NonceStore } from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';

/** Spent single-use values: the first insert wins, and rows past their expiry are dropped as new ones are spent. */
export function createNonceRows(sql: SqlExecutor): NonceStore {
  let spentSinceCleanup = 0;
  return {
    async spend(nonce, expiresAt, now) {
      if (++spentSinceCleanup >= 1000) {
        spentSinceCleanup = 0;
        await sql.query('DELETE FROM toolshed_spent_nonces WHERE expires_at <= $1', [now]);
      }
      const rows = await sql.query(
        'INSERT INTO toolshed_spent_nonces (nonce, expires_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING RETURNING nonce',
        [nonce, expiresAt],
      );
      return rows.length === 1;
    },
  };
}
