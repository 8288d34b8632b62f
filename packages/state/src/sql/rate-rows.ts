import type { RateStore, RateTake, RateWindow } from '../state-store.ts';
import type { SqlExecutor, SqlQuery } from './sql-executor.ts';

/**
 * Rate budgets as a log of calls per key: a call is allowed when every
 * window holds fewer calls than its limit, counted and recorded in one
 * transaction that holds the key's lock, so replicas taking from the same
 * budget at once are counted one after another — exact over any sliding
 * window. Calls older than the longest window are dropped as budgets are used.
 */
export function createRateRows(sql: SqlExecutor): RateStore {
  const decide = async (query: SqlQuery, key: string, windows: readonly RateWindow[], now: number) => {
    for (const window of windows) {
      // The limit-th newest call in the window is the one whose ageing out makes room.
      const rows = await query.query<{ at: number }>(
        'SELECT at FROM toolshed_rate_calls WHERE key = $1 AND at > $2 ORDER BY at DESC LIMIT 1 OFFSET $3',
        [key, now - window.windowMs, window.limit - 1],
      );
      const blocking = rows[0];
      if (blocking !== undefined) {
        return { allowed: false, window, retryAfterMs: Math.max(1, Number(blocking.at) + window.windowMs - now) };
      }
    }
    return { allowed: true } as RateTake;
  };
  return {
    check: (key, windows, now) => decide(sql, key, windows, now),
    take(key, windows, now) {
      const longest = Math.max(...windows.map((window) => window.windowMs));
      return sql.transaction(async (query) => {
        const decision = await decide(query, key, windows, now);
        if (!decision.allowed) return decision;
        await query.query('DELETE FROM toolshed_rate_calls WHERE key = $1 AND at <= $2', [key, now - longest]);
        await query.query('INSERT INTO toolshed_rate_calls (key, at) VALUES ($1, $2)', [key, now]);
        return decision;
      }, `rate:${key}`);
    },
  };
}
