import type Database from 'better-sqlite3';
import type { SqlExecutor, SqlQuery } from '../sql/sql-executor.ts';

/**
 * The tables' statements are written once, in PostgreSQL's parameter style.
 * Where `$1 … $n` each appear once and in order (most statements) they become
 * plain `?`, bound from the array as it is; otherwise `@p1 …`, bound by name.
 */
export function sqliteParameters(sql: string): { text: string; positional: boolean } {
  const numbers = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
  const positional = numbers.every((number, index) => number === index + 1);
  return { text: sql.replace(/\$(\d+)/g, positional ? '?' : '@p$1'), positional };
}

function sqliteValue(value: unknown): unknown {
  return value === undefined ? null : typeof value === 'boolean' ? Number(value) : value;
}

function bindingsOf(params: readonly unknown[] | undefined): Record<string, unknown> {
  const bindings: Record<string, unknown> = {};
  params?.forEach((value, index) => {
    bindings[`p${index + 1}`] = sqliteValue(value);
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
  readonly #statements = new Map<string, { statement: Database.Statement; positional: boolean }>();
  #open: Promise<void> | undefined;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;

  constructor(database: Database.Database) {
    this.#database = database;
    // IMMEDIATE takes the write lock at once: another process's transaction waits (busy_timeout) instead of failing later.
    this.#begin = database.prepare('BEGIN IMMEDIATE');
    this.#commit = database.prepare('COMMIT');
    this.#rollback = database.prepare('ROLLBACK');
  }

  #run<Row>(sql: string, params: readonly unknown[] | undefined): Row[] {
    let prepared = this.#statements.get(sql);
    if (prepared === undefined) {
      const { text, positional } = sqliteParameters(sql);
      prepared = { statement: this.#database.prepare(text), positional };
      this.#statements.set(sql, prepared);
    }
    const { statement, positional } = prepared;
    const bindings = positional ? (params ?? []).map(sqliteValue) : [bindingsOf(params)];
    if (statement.reader) return statement.all(...bindings) as Row[];
    statement.run(...bindings);
    return [];
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    while (this.#open !== undefined) await this.#open;
    return this.#run<Row>(sql, params);
  }

  /**
   * Runs `work` in one transaction without ever yielding to the event loop,
   * once no other transaction is open, and `committed` right after the
   * commit: nothing else can run in between.
   */
  async transactionNow(
    work: (run: (sql: string, params: readonly unknown[]) => void) => void,
    committed?: () => void,
  ): Promise<void> {
    while (this.#open !== undefined) await this.#open;
    this.#begin.run();
    try {
      work((sql, params) => {
        this.#run(sql, params);
      });
      this.#commit.run();
    } catch (error) {
      if (this.#database.inTransaction) this.#rollback.run();
      throw error;
    }
    committed?.();
  }

  async transaction<T>(work: (query: SqlQuery) => Promise<T>): Promise<T> {
    while (this.#open !== undefined) await this.#open;
    let end = () => {};
    this.#open = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.#begin.run();
    try {
      const result = await work({
        query: async <Row>(sql: string, params?: readonly unknown[]) => this.#run<Row>(sql, params),
      });
      this.#commit.run();
      return result;
    } catch (error) {
      if (this.#database.inTransaction) this.#rollback.run();
      throw error;
    } finally {
      this.#open = undefined;
      end();
    }
  }
}
