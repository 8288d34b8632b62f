import type { CallContext } from '@toolshed/mcp-core';
import type { QueryFailureCode, QueryRequest } from './query-messages.ts';
import type { SqlLimits } from './sql-server-options.ts';

/** The engines a database can be held in. */
export type SqlEngineKind = 'sqlite' | 'postgres' | 'mysql';

/**
 * What one request to a database produced: the JSON text of the tool's result
 * (the same shapes on every engine), or why it was refused or failed, in words
 * a model can act on.
 */
export type SqlOutcome = { ok: true; json: string } | { ok: false; code: QueryFailureCode; message: string };

/**
 * One database the server serves, whatever engine holds it. Every engine
 * answers the same requests with the same JSON shapes, within the same limits,
 * and keeps the same read-only guarantees.
 */
export interface SqlDatabase {
  readonly name: string;
  readonly engine: SqlEngineKind;
  /**
   * Runs one request within the server's limits. A refusal or SQL error is an
   * `ok: false` outcome; a thrown error means the database could not be used
   * at all (unreachable, shutting down). Aborting `call.signal` stops the
   * statement on the database server, not only in the client.
   */
  run(request: QueryRequest, call: Pick<CallContext, 'signal' | 'progress'>): Promise<SqlOutcome>;
  /** Ends every connection and process; calls after it fail. */
  close(): Promise<void>;
  /**
   * Connects once and checks what the role may do, for a server that must
   * refuse to start on a privileged role: rejects with a `config_invalid`
   * LocalError naming the privilege. An unreachable database is not a
   * refusal: it is warned about and the check runs on the first connection
   * that succeeds. Engines without connections leave it out.
   */
  start?(): Promise<void>;
  /**
   * Puts a statement through the engine's read-only gate, with `parameterCount`
   * values bound, without running it. For engines whose gate needs the
   * database itself (SQLite prepares the statement); the others' gates need
   * only the text.
   */
  checkReader?(sql: string, parameterCount: number): Promise<SqlOutcome>;
}

/** A network database as given to `--db NAME=URL`. */
export interface SqlDatabaseTarget {
  name: string;
  /** The connection URL; it may hold a password, which no output may ever show. */
  url: string;
  /** From `TOOLSHED_SQL_PASSWORD_<NAME>`, when set; it wins over one in the URL. */
  password?: string | undefined;
  /**
   * Where to connect instead of the URL's host and port: the local end of an
   * SSH tunnel, a unix socket named as libpq names them
   * (`DIRECTORY/.s.PGSQL.PORT`). TLS, when used, still verifies the URL's host.
   */
  through?: { directory: string; port: number } | undefined;
}

/** What every network engine is opened with. */
export interface SqlEngineSettings {
  limits: SqlLimits;
  /** Start with (and serve through) a role that could write, read server files or signal other sessions. */
  allowPrivilegedRole: boolean;
  /** A PEM file of the CA that signs the database server's certificate, for a private CA. */
  caFile?: string | undefined;
  /** One line for the operator on stderr (never the password). */
  warn(message: string): void;
}
