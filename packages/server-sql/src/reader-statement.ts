import type Database from 'better-sqlite3';
import { QueryFailure } from './query-failure.ts';

/**
 * The first word of a statement, after whitespace and comments, as SQLite's
 * tokenizer would see them. Only used to keep PRAGMA, ATTACH and the like
 * from being prepared at all: SQLite applies many PRAGMAs while *preparing*
 * them (`PRAGMA query_only = 0` takes effect before any check on the prepared
 * statement could refuse it). The gate itself is SQLite's classification of
 * the prepared statement, below.
 */
function firstWord(sql: string): string {
  let index = 0;
  while (index < sql.length) {
    const char = sql[index] as string;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r') index++;
    else if (sql.startsWith('--', index)) {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', index)) {
      const end = sql.indexOf('*/', index + 2);
      index = end === -1 ? sql.length : end + 2;
    } else break;
  }
  const match = /^[A-Za-z]+/.exec(sql.slice(index, index + 16));
  return match === null ? '' : match[0].toUpperCase();
}

/** The statement forms that can be pure reads; anything else is refused before SQLite sees it. */
const readForms = new Set(['SELECT', 'WITH', 'VALUES']);

export const onlyReadsMessage: string =
  'Only SELECT-style reads are allowed: one SELECT, WITH … SELECT or VALUES statement. ' +
  'Writes, schema changes, ATTACH/DETACH, VACUUM, PRAGMA and transaction statements are refused; ' +
  'use list_tables and describe_table for the schema.';

/**
 * Prepares exactly one statement and lets it through only if SQLite itself
 * classifies it as a pure read: it returns rows (`reader`) and writes nothing
 * (`readonly`, sqlite3_stmt_readonly). `WITH x AS (…) INSERT …` and
 * `INSERT … RETURNING` return rows but are not read-only; ATTACH is read-only
 * but returns no rows. The read-only connection stands behind this gate.
 */
export function prepareReader(connection: Database.Database, sql: string): Database.Statement {
  if (sql.includes('\u0000')) {
    // SQLite stops reading at a NUL: what ran would not be what was sent.
    throw new QueryFailure('not_a_read', 'The SQL contains a NUL character; remove it and send one statement.');
  }
  if (!readForms.has(firstWord(sql))) throw new QueryFailure('not_a_read', onlyReadsMessage);
  let statement: Database.Statement;
  try {
    statement = connection.prepare(sql);
  } catch (error) {
    const message = (error as Error).message;
    if (/more than one statement/.test(message)) {
      throw new QueryFailure('not_a_read', `Send exactly one statement per call. ${onlyReadsMessage}`);
    }
    throw new QueryFailure('sql_error', `SQLite could not prepare the statement: ${message}`);
  }
  if (!statement.reader || !statement.readonly) throw new QueryFailure('not_a_read', onlyReadsMessage);
  return statement;
}
