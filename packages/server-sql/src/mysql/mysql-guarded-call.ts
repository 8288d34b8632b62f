import type { CallContext } from '@toolshed/mcp-core';
import type mysql from 'mysql2';
import type { PoolConnection } from 'mysql2';
import { QueryFailure } from '../query-failure.ts';
import type { SqlOutcome } from '../sql-engine.ts';
import type { StatementTimeLimit } from '../statement-time-limit.ts';
import { executeDirect } from './mysql-direct-execute.ts';
import { readResetAndPin, resetAndPinPackets, resetAndPinSession } from './mysql-session-reset.ts';
import type { MysqlStatementStopper } from './mysql-statement-stopper.ts';
import type { MysqlColumn } from './mysql-values.ts';

/**
 * One call's session on one pooled connection, inside every layer that does
 * not depend on the statement's text: settings pinned for the call (the SQL
 * mode the statement gate reads SQL in, UTC, the time limit), READ ONLY
 * transactions, a stop on the server from a second
 * connection when the limit passes or the call is cancelled, and
 * COM_RESET_CONNECTION before the connection goes back to the pool (user
 * variables, prepared statements, temporary tables, named locks and table
 * locks all end there; the next call's settings are pinned in the same round
 * trip), or the connection is dropped.
 */

export type MysqlFlavor = 'mariadb' | 'mysql';

/** The SQL mode every call runs under: without ANSI_QUOTES or NO_BACKSLASH_ESCAPES, as the statement gate reads SQL. */
const callSqlMode = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

/** Server errors that mean the time limit stopped the statement (MariaDB, MySQL). */
const timeLimitErrors = new Set([1969, 3024]);
/** ER_QUERY_INTERRUPTED: KILL QUERY reached the statement. */
const interruptedError = 1317;

export interface GuardedCallSettings {
  flavor: MysqlFlavor;
  /** The limit every call's session is pinned to. */
  timeLimit: StatementTimeLimit;
  /** This call's own limit, when it is not the session's (an export's): set for the call, reset after it. */
  callTimeLimit?: StatementTimeLimit | undefined;
  stopper: MysqlStatementStopper;
  call: Pick<CallContext, 'signal' | 'progress'>;
}

interface ServerError extends Error {
  errno?: number;
  sqlState?: string;
  fatal?: boolean;
}

/**
 * The connection was found dead at the call's first command, before any
 * statement of the call ran: the call may be tried again on another one.
 */
export class StaleConnection extends Error {
  constructor() {
    super('The connection was lost before the call began.');
  }
}

/** Why the statement is being stopped from outside, when it is. */
type StopReason = 'time_limit' | 'cancelled' | 'enough_rows';

/** A failure that ends the call with an outcome rather than a thrown error. */
class CallFailure extends Error {
  readonly outcome: SqlOutcome;

  constructor(outcome: SqlOutcome) {
    super('call failed');
    this.outcome = outcome;
  }
}

function runText(connection: PoolConnection, sql: string): Promise<void> {
  return new Promise((resolve, reject) => connection.query(sql, (error) => (error ? reject(error) : resolve())));
}

/** Where a statement's rows go as they arrive. */
export interface MysqlRowSink {
  setColumns(columns: readonly MysqlColumn[]): void;
  /** Takes one row; false once it wants no more, and the statement is stopped. */
  add(row: unknown[]): boolean;
}

/** What a call does inside its session. */
export interface GuardedSession {
  /**
   * Runs one prepared statement, streaming its rows into the sink until it
   * says stop. `last`: the call sends nothing after it, so on MariaDB the
   * connection's reset goes out in the same write (see `guardedCall`).
   */
  stream(sql: string, params: readonly unknown[], sink: MysqlRowSink, options?: { last?: boolean }): Promise<void>;
  /** Runs one prepared statement of ours and returns its rows as objects (schema reads). */
  rows(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops reading rows from the server (the sink's consumer is behind) until `resume`. */
  pause(): void;
  resume(): void;
}

/** The server's own limit on a statement's time: MariaDB's in seconds, MySQL's in milliseconds. */
function statementTimeSetting(flavor: MysqlFlavor, ms: number): string {
  return flavor === 'mariadb'
    ? `max_statement_time = ${Math.max(ms, 1) / 1000}`
    : `max_execution_time = ${Math.max(1, Math.ceil(ms))}`;
}

/**
 * The one statement that sets a call's session up: the time limit and lock
 * waits, UTC, the SQL mode the gate reads SQL in, and read-only transactions,
 * so that each statement of the call runs as a READ ONLY transaction of its
 * own (as `START TRANSACTION READ ONLY` would make it, one round trip
 * cheaper).
 */
export function callSessionSql(settings: Pick<GuardedCallSettings, 'flavor' | 'timeLimit'>): string {
  const seconds = Math.max(settings.timeLimit.ms, 1) / 1000;
  const lockSeconds = Math.max(1, Math.ceil(seconds));
  const mariadb = settings.flavor === 'mariadb';
  const limit = statementTimeSetting(settings.flavor, settings.timeLimit.ms);
  // MariaDB before 11.1 knows only tx_read_only (later ones keep it as an alias); MySQL 8 only transaction_read_only.
  const readOnly = mariadb ? 'tx_read_only' : 'transaction_read_only';
  return (
    `SET SESSION ${limit}, lock_wait_timeout = ${lockSeconds}, innodb_lock_wait_timeout = ${lockSeconds}, ` +
    `time_zone = '+00:00', sql_mode = '${callSqlMode}', ${readOnly} = 1, autocommit = 1`
  );
}

/**
 * Sets up the session of a connection that has not served a call yet; after
 * a call, the reset sets it up again for the next one (`guardedCall`). A
 * fatal error here means a dead connection, worth one more try.
 */
export async function openCallSession(connection: PoolConnection, settings: GuardedCallSettings): Promise<void> {
  await runText(connection, callSessionSql(settings));
}

function serverErrorMessage(error: ServerError, flavor: MysqlFlavor): string {
  const server = flavor === 'mariadb' ? 'MariaDB' : 'MySQL';
  return error.errno === undefined
    ? `${server} error: ${error.message}`
    : `${server} error ${error.errno} (${error.sqlState ?? 'HY000'}): ${error.message}`;
}

/**
 * Runs `work` in a guarded session on `connection` and always settles the
 * connection: released clean, or destroyed when it cannot be made clean.
 */
export async function guardedCall(
  connection: PoolConnection,
  settings: GuardedCallSettings,
  work: (session: GuardedSession) => Promise<string>,
): Promise<SqlOutcome> {
  const { stopper, call, flavor } = settings;
  // The clock of this call: the session's limit, or the call's own (an export's), which the reset after it undoes.
  const timeLimit = settings.callTimeLimit ?? settings.timeLimit;
  const threadId = connection.threadId;
  let stopReason: StopReason | undefined;
  // A connection the server dropped while it sat in the pool (a restart) fails the call's first command.
  let commandsAnswered = 0;
  let stale = false;
  let connectionKilled = false;
  // SLEEP and BENCHMARK stopped by max_statement_time return a value instead of an error; past the limit, a
  // statement's result is never taken as its answer. Measured from before the statement was sent, so that the
  // server's own clock (started later) can never have stopped it sooner than this one says.
  const started = performance.now();
  const overran = () => performance.now() - started >= timeLimit.ms;
  let running: ((error: Error) => void) | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  // A KILL QUERY still on its way must land before the connection serves another call, or it would stop that call.
  const kills: Promise<void>[] = [];
  const grace = Math.min(2000, 200 + timeLimit.ms / 10);

  // A sink whose consumer is behind pauses the reading of rows (session.pause); a stop reads on, so that the
  // statement's end is heard.
  let paused = false;
  const resume = () => {
    if (!paused) return;
    paused = false;
    connection.resume();
  };
  const stop = (reason: StopReason) => {
    if (stopReason !== undefined && stopReason !== 'enough_rows') return;
    stopReason = reason;
    resume();
    kills.push(stopper.killQuery(threadId));
    if (reason === 'enough_rows') return;
    // A statement that does not stop for KILL QUERY (stuck in a lock, a slow rollback) loses its connection.
    graceTimer = setTimeout(() => {
      connectionKilled = true;
      kills.push(stopper.killConnection(threadId));
      connection.destroy();
      running?.(new Error('stopped'));
    }, grace);
  };

  const outcomeOf = (error: ServerError): SqlOutcome => {
    if (stopReason === 'cancelled') return { ok: false, code: 'sql_error', message: 'The query was cancelled.' };
    if (stopReason === 'time_limit' || (error.errno !== undefined && timeLimitErrors.has(error.errno))) {
      return { ok: false, code: 'sql_error', message: timeLimit.expired().message };
    }
    if (error.fatal) {
      return {
        ok: false,
        code: 'database_unavailable',
        message: `The connection to the database was lost while the statement ran (${error.message}). Try again.`,
      };
    }
    return { ok: false, code: 'sql_error', message: serverErrorMessage(error, flavor) };
  };

  // The reset written behind the call's last statement, when it was: its answers, read after the statement's.
  let pipelinedReset: Promise<void> | undefined;
  const execute = (
    sql: string,
    params: readonly unknown[],
    onFields: (fields: MysqlColumn[]) => void,
    onRow: (row: unknown[]) => boolean,
    last = false,
  ) =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: ServerError) => {
        if (settled) return;
        settled = true;
        running = undefined;
        if (error === undefined && stopReason !== 'enough_rows' && overran()) {
          reject(new CallFailure({ ok: false, code: 'sql_error', message: timeLimit.expired().message }));
        } else if (error === undefined) resolve();
        else if (stopReason === 'enough_rows' && error.errno === interruptedError) resolve();
        else reject(new CallFailure(outcomeOf(error)));
      };
      running = (error) => settle(error);
      // MariaDB prepares and executes in one round trip; MySQL has no way to, and takes two. Behind the call's
      // last statement MariaDB also gets the reset and the next call's settings in the same write: the server
      // reads its commands in order, so they run when the statement is over, as they would after a round trip.
      const pipeline = last && flavor === 'mariadb' && settings.callTimeLimit === undefined;
      const command =
        flavor === 'mariadb'
          ? executeDirect(
              connection,
              { sql, rowsAsArray: true },
              params as mysql.ExecuteValues[],
              pipeline ? resetAndPinPackets(connection, callSessionSql(settings)) : undefined,
            )
          : connection.execute({ sql, rowsAsArray: true }, params as mysql.ExecuteValues[]);
      if (pipeline) {
        pipelinedReset = readResetAndPin(connection);
        // Read after the call; a failure there drops the connection.
        pipelinedReset.catch(() => {});
      }
      // A statement without a result set (possible only behind the gate) answers an OK: no columns, no rows.
      let resultSet = false;
      command.on('fields', (fields: MysqlColumn[] | undefined) => {
        resultSet = fields !== undefined;
        onFields(fields ?? []);
      });
      command.on('result', (row: unknown[]) => {
        if (resultSet && !onRow(row) && stopReason === undefined) stop('enough_rows');
      });
      command.on('error', (error: ServerError) => {
        if (error.fatal && commandsAnswered === 0 && stopReason === undefined) stale = true;
        settle(error);
      });
      command.on('end', () => {
        commandsAnswered++;
        settle();
      });
    });

  const session: GuardedSession = {
    stream: (sql, params, sink, options = {}) =>
      execute(
        sql,
        params,
        (fields) => sink.setColumns(fields),
        (row) => sink.add(row),
        options.last,
      ),
    pause() {
      if (paused || stopReason !== undefined) return;
      paused = true;
      connection.pause();
    },
    resume,
    async rows(sql, params = []) {
      let names: string[] = [];
      const rows: Record<string, unknown>[] = [];
      await execute(
        sql,
        params,
        (fields) => {
          names = fields.map((field) => field.name);
        },
        (row) => {
          rows.push(Object.fromEntries(names.map((name, index) => [name, row[index]])));
          return true;
        },
      );
      return rows;
    },
  };

  const onAbort = () => stop('cancelled');
  call.signal.addEventListener('abort', onAbort, { once: true });
  const stopClock = timeLimit.start(() => {
    graceTimer = setTimeout(() => stop('time_limit'), grace);
  }, call.progress);
  let outcome: SqlOutcome;
  try {
    if (call.signal.aborted) return { ok: false, code: 'sql_error', message: 'The query was cancelled.' };
    if (settings.callTimeLimit !== undefined) {
      const setting = `SET SESSION ${statementTimeSetting(flavor, settings.callTimeLimit.ms)}`;
      await runText(connection, setting).catch((error: ServerError) => {
        throw new CallFailure({
          ok: false,
          code: 'database_unavailable',
          message: `The call's time limit could not be set (${error.message}). Try again.`,
        });
      });
    }
    outcome = { ok: true, json: await work(session) };
  } catch (error) {
    if (error instanceof CallFailure) outcome = error.outcome;
    else if (error instanceof QueryFailure) outcome = { ok: false, code: error.code, message: error.message };
    else throw error;
  } finally {
    stopClock();
    clearTimeout(graceTimer);
    call.signal.removeEventListener('abort', onAbort);
    await Promise.all(kills);
    await settleConnection(connection, connectionKilled, callSessionSql(settings), {
      pipelinedReset,
      // A KILL QUERY may land after the reset written behind the statement: then the connection is reset again.
      stopped: kills.length > 0,
    });
  }
  if (stale) throw new StaleConnection();
  return outcome;
}

/**
 * Resets the connection and sets it up for the next call, or drops it when
 * that fails. COM_RESET_CONNECTION rolls back any open transaction itself.
 */
async function settleConnection(
  connection: PoolConnection,
  killed: boolean,
  sessionSql: string,
  pipelined: { pipelinedReset: Promise<void> | undefined; stopped: boolean },
): Promise<void> {
  if (killed) return;
  try {
    if (pipelined.pipelinedReset !== undefined) await pipelined.pipelinedReset;
    if (pipelined.pipelinedReset === undefined || pipelined.stopped) await resetAndPinSession(connection, sessionSql);
    connection.release();
  } catch {
    connection.destroy();
  }
}
