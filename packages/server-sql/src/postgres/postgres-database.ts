import { LocalError, ToolError } from '@toolshed/mcp-core';
import pg from 'pg';
import { ExportTimeLimit } from '../export-time-limit.ts';
import { QueryFailure } from '../query-failure.ts';
import type { QueryRequest } from '../query-messages.ts';
import type { SqlDatabase, SqlDatabaseTarget, SqlEngineSettings, SqlOutcome } from '../sql-engine.ts';
import { StatementTimeLimit } from '../statement-time-limit.ts';
import { postgresPoolConfig, redact, secretsOf } from './postgres-connection-config.ts';
import { exportPostgresRows } from './postgres-export.ts';
import { privilegedRoleMessage, rolePrivileges } from './postgres-role-check.ts';
import { PostgresTypeNames, readPostgresRowsAsJson } from './postgres-rows.ts';
import { describePostgresTableAsJson, postgresPlanAsJson, postgresSchemaText } from './postgres-schema.ts';
import { AdmittedStatementCache, loadPostgresParser } from './postgres-statement-gate.ts';
import { listPostgresTablesAsJson } from './postgres-table-listing.ts';

/**
 * How long past the time limit a statement may still run before it is
 * cancelled from a second connection, and again before its session is
 * terminated. The server's own statement_timeout fires first; this is for a
 * statement it does not stop.
 */
export const cancelGraceMs = 1000;

/**
 * `DISCARD ALL`, spelt out, after the rollback: DISCARD ALL may not run in a
 * multi-statement query, its parts may, so a call returns its connection
 * clean in one round trip. Settings, prepared statements, cursors,
 * listeners, session advisory locks, temporary tables and sequence caches go.
 */
const returnCleanStatements = [
  'ROLLBACK',
  'CLOSE ALL',
  'SET SESSION AUTHORIZATION DEFAULT',
  'RESET ALL',
  'DEALLOCATE ALL',
  'UNLISTEN *',
  'SELECT pg_advisory_unlock_all()',
  'DISCARD PLANS',
  'DISCARD TEMP',
  'DISCARD SEQUENCES',
];
const returnClean = returnCleanStatements.join('; ');

/** The settings every call runs under: its time limits and the output formats the row decoders read. */
function callSettings(statementMs: number, lockMs = statementMs): Record<string, string> {
  return {
    statement_timeout: String(statementMs),
    lock_timeout: String(lockMs),
    // Should this process stall mid-call, the server ends the session rather than hold a transaction open.
    idle_in_transaction_session_timeout: String(statementMs + 4 * cancelGraceMs),
    DateStyle: 'ISO, YMD',
    IntervalStyle: 'iso_8601',
    bytea_output: 'hex',
    extra_float_digits: '1',
  };
}

/** Settings as the start-up packet's `options` carry them: `-c name=value`, a space in a value escaped. */
function sessionOptions(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value.replaceAll('\\', '\\\\').replaceAll(' ', '\\ ')}`)
    .join(' ');
}

/** The role check's result: not yet asked, fine, or the refusal every call answers. */
type RoleState = { checked: false } | { checked: true; refusal: string | undefined };

/**
 * A PostgreSQL database, read-only whatever the role, in layers that each
 * hold alone: the statement gate (the server's own parser), one statement
 * per call through the extended protocol, a READ ONLY transaction with the
 * time limits set inside it and rolled back after, the connection returned
 * clean (`DISCARD ALL`) or dropped, a runaway cancelled and then terminated
 * on the server from a second connection, and a role check at the first
 * connection that refuses a privileged role.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly name: string;
  readonly engine = 'postgres' as const;
  readonly #settings: SqlEngineSettings;
  readonly #pool: pg.Pool;
  readonly #config: pg.PoolConfig;
  readonly #secrets: string[];
  readonly #timeLimit: StatementTimeLimit;
  readonly #exportTimeLimit: ExportTimeLimit;
  readonly #typeNames = new PostgresTypeNames();
  readonly #sessionSetup: string;
  readonly #transaction: { before: readonly string[]; after: readonly string[] };
  readonly #exportTransaction: { before: readonly string[]; after: readonly string[] };
  /** How to stop each statement running now, for close(). */
  readonly #running = new Set<(reason: Error) => void>();
  #role: RoleState = { checked: false };
  #started: Promise<void> | undefined;
  #closed = false;
  readonly #statementGate: boolean;
  readonly #admitted = new AdmittedStatementCache();

  /**
   * `layers.statementGate: false` switches the gate off, so that tests can
   * show the layers behind it holding on their own; the server never does.
   */
  constructor(target: SqlDatabaseTarget, settings: SqlEngineSettings, layers: { statementGate?: boolean } = {}) {
    this.name = target.name;
    this.#statementGate = layers.statementGate ?? true;
    this.#settings = settings;
    this.#secrets = secretsOf(target);
    const { timeoutMs, exportTimeoutMs } = settings.limits;
    this.#config = postgresPoolConfig(target, settings);
    // A query's limits and output formats are the session's own, set once per connection in its start-up packet
    // rather than by seven SET LOCALs in every call: the server treats them as the session's defaults, so the
    // rollback and RESET ALL after each call bring them back, and they win over the role's and the database's
    // settings as SET LOCAL did. Ours come after the URL's own `options`, so a URL cannot loosen them.
    this.#config.options = [this.#config.options, sessionOptions(callSettings(timeoutMs))].filter(Boolean).join(' ');
    this.#pool = new pg.Pool(this.#config);
    // An idle connection the server dropped (a restart) is an event on the pool, not a crash of ours. A
    // connection checked out for a call has no pool listener: one dropped between its queries would be an
    // unhandled 'error' event, which ends the process. The call's own query rejects; the event is not needed.
    this.#pool.on('error', () => {});
    this.#pool.on('connect', (client) => client.on('error', () => {}));
    this.#timeLimit = new StatementTimeLimit(settings.limits.timeoutMs);
    this.#exportTimeLimit = new ExportTimeLimit(settings.limits.exportTimeoutMs);
    // Every call's transaction sets them again with SET LOCAL but a query's, the one call that is hot.
    const setup = (statementMs: number) => [
      'BEGIN TRANSACTION READ ONLY',
      ...Object.entries(callSettings(statementMs, timeoutMs)).map(([name, value]) => `SET LOCAL ${name} = '${value}'`),
    ];
    this.#sessionSetup = setup(timeoutMs).join('; ');
    this.#transaction = { before: ['BEGIN TRANSACTION READ ONLY'], after: returnCleanStatements };
    // An export's statement is fetched a batch at a time, and statement_timeout restarts with each batch: the
    // export's own clock (below) stops it at its limit.
    this.#exportTransaction = { before: setup(exportTimeoutMs), after: returnCleanStatements };
    loadPostgresParser().catch(() => {});
  }

  /** Connects once and checks the role; see `SqlDatabase.start`. */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      this.#settings.warn(
        `database "${this.name}" cannot be reached (${this.#safe(error)}); the server starts, and calls to it fail until it can be reached`,
      );
      return;
    }
    try {
      await this.#checkRole(client);
    } finally {
      client.release();
    }
    if (this.#role.checked && this.#role.refusal !== undefined) {
      throw new LocalError('config_invalid', this.#role.refusal);
    }
  }

  async #checkRole(client: pg.PoolClient): Promise<void> {
    if (this.#role.checked) return;
    const privileges = await rolePrivileges(client);
    if (privileges.privileges.length === 0) {
      this.#role = { checked: true, refusal: undefined };
    } else if (this.#settings.allowPrivilegedRole) {
      this.#role = { checked: true, refusal: undefined };
      this.#settings.warn(
        `database "${this.name}": serving through the role "${privileges.role}" (${privileges.privileges.join(', ')}) because --allow-privileged-role was given; every read-only layer still applies`,
      );
    } else {
      this.#role = { checked: true, refusal: privilegedRoleMessage(this.name, privileges) };
    }
  }

  /** An error's message with no password or URL credentials in it. */
  #safe(error: unknown): string {
    return redact(error instanceof Error ? error.message : String(error), this.#secrets);
  }

  async run(request: QueryRequest, call: Parameters<SqlDatabase['run']>[1]): Promise<SqlOutcome> {
    if (this.#closed) throw new ToolError('The server is shutting down.');
    try {
      if (
        (request.kind === 'query' || request.kind === 'explain' || request.kind === 'export') &&
        this.#statementGate
      ) {
        await loadPostgresParser();
        this.#admitted.check(request.sql);
      }
    } catch (error) {
      if (error instanceof QueryFailure) return { ok: false, code: error.code, message: error.message };
      throw error;
    }
    call.signal.throwIfAborted();
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw new ToolError(`The database "${this.name}" cannot be reached: ${this.#safe(error)}. Try again later.`);
    }
    try {
      await this.#checkRole(client);
    } catch (error) {
      client.release(true);
      throw new ToolError(`The database "${this.name}" could not be asked about its role: ${this.#safe(error)}.`);
    }
    if (this.#role.checked && this.#role.refusal !== undefined) {
      client.release();
      return { ok: false, code: 'database_unavailable', message: this.#role.refusal };
    }
    return this.#runOn(client, request, call);
  }

  async #runOn(
    client: pg.PoolClient,
    request: QueryRequest,
    call: Parameters<SqlDatabase['run']>[1],
  ): Promise<SqlOutcome> {
    const pid = (client as unknown as { processID: number }).processID;
    let running = true;
    let stoppedBy: Error | undefined;
    // Ends an export between two batches, where no statement runs for a cancel to reach.
    const stopExport = new AbortController();
    const stopOnServer = (reason: Error) => {
      if (!running || stoppedBy !== undefined) return;
      stoppedBy = reason;
      stopExport.abort(reason);
      void this.#stopOnServer(pid, () => running);
    };
    this.#running.add(stopOnServer);
    const onAbort = () =>
      stopOnServer(call.signal.reason instanceof Error ? call.signal.reason : new Error('cancelled'));
    call.signal.addEventListener('abort', onAbort, { once: true });
    const stopClock =
      request.kind === 'export'
        ? this.#exportTimeLimit.start(stopOnServer, call.progress)
        : // The server's statement_timeout fires at the limit; this clock is for a statement it does not stop.
          this.#timeLimit.start(() => {
            setTimeout(() => stopOnServer(this.#timeLimit.expired()), cancelGraceMs).unref();
          }, call.progress);
    let clean = false;
    try {
      if (request.kind === 'export') {
        const { json, finished } = await exportPostgresRows(
          client,
          this.#exportTransaction,
          request,
          this.#typeNames,
          stopExport.signal,
        );
        clean = finished || (await this.#rollBack(client));
        return { ok: true, json };
      }
      if (request.kind === 'query') {
        // The hot path: the transaction, the statement and the reset in one round trip.
        const { json, finished } = await readPostgresRowsAsJson(
          client,
          this.#transaction,
          request.sql,
          request.params,
          request.limits,
          this.#typeNames,
        );
        clean = finished || (await this.#rollBack(client));
        return { ok: true, json };
      }
      await client.query(this.#sessionSetup);
      const json = await this.#answer(client, request);
      await client.query(returnClean);
      clean = true;
      return { ok: true, json };
    } catch (error) {
      clean = await this.#rollBack(client);
      if (stoppedBy !== undefined) throw stoppedBy;
      if (error instanceof QueryFailure) return { ok: false, code: error.code, message: error.message };
      const code = (error as { code?: string }).code;
      if (code === '57014') throw this.#timeLimit.expired();
      // No SQLSTATE, a lost connection (08…) or the server ending the session (57P…): the call did not get to run.
      if (code === undefined || code.startsWith('08') || code.startsWith('57P')) {
        throw new ToolError(
          `The connection to "${this.name}" failed during the call: ${this.#safe(error)}. Try again.`,
        );
      }
      return { ok: false, code: 'sql_error', message: `PostgreSQL error: ${this.#safe(error)}` };
    } finally {
      running = false;
      this.#running.delete(stopOnServer);
      stopClock();
      call.signal.removeEventListener('abort', onAbort);
      client.release(!clean);
    }
  }

  async #answer(client: pg.PoolClient, request: Exclude<QueryRequest, { kind: 'query' | 'export' }>): Promise<string> {
    switch (request.kind) {
      case 'explain':
        return postgresPlanAsJson(client, request.sql);
      case 'list_tables':
        return listPostgresTablesAsJson(client, request);
      case 'describe_table':
        return describePostgresTableAsJson(client, request.table);
      case 'schema_text':
        return JSON.stringify({ text: await postgresSchemaText(client) });
    }
  }

  /** Rolls back and returns the session to how it was opened; false (drop it) when that fails. */
  async #rollBack(client: pg.PoolClient): Promise<boolean> {
    try {
      await client.query(returnClean);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Cancels a statement on the server from a second connection, and
   * terminates its session when cancelling did not end it in time.
   */
  #stopOnServer(pid: number, stillRunning: () => boolean): Promise<void> {
    const signal = async (functionName: 'pg_cancel_backend' | 'pg_terminate_backend') => {
      const control = new pg.Client({ ...this.#config, application_name: 'toolshed-sql control' });
      control.on('error', () => {});
      try {
        await control.connect();
        await control.query({ text: `SELECT ${functionName}($1)`, values: [pid] });
      } catch (error) {
        this.#settings.warn(`database "${this.name}": could not stop a statement (${this.#safe(error)})`);
      } finally {
        await control.end().catch(() => {});
      }
    };
    return signal('pg_cancel_backend').then(() => {
      setTimeout(() => {
        if (stillRunning()) void signal('pg_terminate_backend');
      }, cancelGraceMs).unref();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Statements still running are cancelled on the server, so ending the pool does not wait for them.
    for (const stop of this.#running) stop(new ToolError('The server is shutting down.'));
    await this.#pool.end();
  }
}

/** A PostgreSQL database (`postgres://`, `postgresql://`), read-only whatever the role. */
export function openPostgresDatabase(target: SqlDatabaseTarget, settings: SqlEngineSettings): SqlDatabase {
  return new PostgresDatabase(target, settings);
}
