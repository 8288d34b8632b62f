import type Database from 'better-sqlite3';
import { prepareReader } from './reader-statement.ts';

/**
 * Prepared reader statements by SQL text, least recently used dropped first:
 * an agent repeats the same query with new parameters, and preparing costs as
 * much as a point lookup. Only statements that passed the gate are kept.
 */
export class StatementCache {
  readonly #connection: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #capacity: number;

  constructor(connection: Database.Database, capacity = 128) {
    this.#connection = connection;
    this.#capacity = capacity;
  }

  reader(sql: string): Database.Statement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = prepareReader(this.#connection, sql);
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.#capacity) {
      this.#statements.delete(this.#statements.keys().next().value as string);
    }
    return statement;
  }

  /** Drops a statement whose run failed, so a half-finished one is never reused. */
  forget(sql: string): void {
    this.#statements.delete(sql);
  }
}
