/** What the store's tables need of an engine: statements with `$1`-style parameters, and transactions. */
export interface SqlQuery {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlExecutor extends SqlQuery {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `work` in one transaction. With `lock`, the transaction holds an
   * exclusive lock on that name among every process sharing the store until
   * it ends (PostgreSQL: a transaction advisory lock; SQLite: the write lock).
   */
  transaction<T>(work: (query: SqlQuery) => Promise<T>, lock?: string): Promise<T>;
}
