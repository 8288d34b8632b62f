import type pg from 'pg';
import type { SqlExecutor, SqlQuery } from '../sql/sql-executor.ts';

/** The store's statements over a pool: one connection per statement, one per transaction. */
export class PostgresExecutor implements SqlExecutor {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    const result = await this.#pool.query(sql, params as unknown[] | undefined);
    return result.rows as Row[];
  }

  async transaction<T>(work: (query: SqlQuery) => Promise<T>, lock?: string): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      // Held until the transaction ends, by whichever replica took it first; the others wait their turn.
      if (lock !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]);
      const result = await work({
        query: async <Row>(sql: string, params?: readonly unknown[]) =>
          (await client.query(sql, params as unknown[] | undefined)).rows as Row[],
      });
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // A connection whose transaction could not be ended is not handed to the next caller.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.release(rolledBack ? undefined : true);
      throw error;
    }
  }
}
