import type Database from 'better-sqlite3';
import type { SqlExecutor, SqlQuery } from '../sql/sql-executor.ts';

/** `$1` → `@p1`: the tables' statements are written once, in PostgreSQL's parameter style. */
function namedParameters(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

function bindingsOf(params: readonly unknown[] | undefined): Record<string, unknown> {
  const bindings: Record<string, unknown> = {};
  params?.forEach((value, index) => {
    bindings[`p${index + 1}`] = value === undefined ? null : typeof value === 'boolean' ? Number(value) : value;
  });
  return bindings;
}

/**
 * better-sqlite3 behind the store's asynchronous contract. The driver is
 * synchronous, so a transaction must not let another caller's statement in
 * between two of its own (it would be committed or rolled back with it):
 * while one is open, every other statement waits for it to end.
 */
export class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  readonly #database: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #open: Promise<void> | undefined;

  constructor(database: Database.Database) {
    this.#database = database;
  }

  #run<Row>(sql: string, params: readonly unknown[] | undefined): Row[] {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#database.prepare(namedParameters(sql));
      this.#statements.set(sql, statement);
    }
    const bindings = bindingsOf(params);
    if (statement.reader) return statement.all(bindings) as Row[];
    statement.run(bindings);
    return [];
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    while (this.#open !== undefined) await this.#open;
    return this.#run<Row>(sql, params);
  }

  async transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T> {
    while (this.#open !== undefined) await this.#open;
    let end = () => {};
    this.#open = new Promise<void>((resolve) => {
      end = resolve;
    });
    // IMMEDIATE takes the write lock at once: another process's transaction waits (busy_timeout) instead of failing later.
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      const result = await work({
        query: async <Row>(sql: string, params?: readonly unknown[]) => this.#run<Row>(sql, params),
      });
      this.#database.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#database.inTransaction) this.#database.exec('ROLLBACK');
      throw error;
    } finally {
      this.#open = undefined;
      end();
    }
  }
}
