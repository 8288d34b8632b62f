import { LocalError, ToolError } from '@toolshed/mcp-core';
import mysql, { type Pool, type PoolConnection } from 'mysql2';
import { ExportTimeLimit } from '../export-time-limit.ts';
import { QueryFailure } from '../query-failure.ts';
import type { QueryRequest, SqlParameters } from '../query-messages.ts';
import type { SqlDatabase, SqlDatabaseTarget, SqlEngineSettings, SqlOutcome } from '../sql-engine.ts';
import { StatementTimeLimit } from '../statement-time-limit.ts';
import { type MysqlConnectionSettings, mysqlConnectionSettings } from './mysql-connection-options.ts';
import { exportMysqlRows } from './mysql-export.ts';
import {
  type GuardedSession,
  guardedCall,
  type MysqlFlavor,
  openCallSession,
  StaleConnection,
} from './mysql-guarded-call.ts';
import { privilegedGrants, privilegedRoleMessage } from './mysql-role-check.ts';
import { MysqlRowCollector } from './mysql-rows.ts';
import { describeMysqlTableAsJson, mysqlQueryPlanAsJson, mysqlSchemaText } from './mysql-schema.ts';
import { type AdmittedRead, AdmittedReadCache, refuseStoredFunctions } from './mysql-statement-gate.ts';
import { MysqlStatementStopper } from './mysql-statement-stopper.ts';
import { listMysqlTablesAsJson } from './mysql-table-listing.ts';

/** What the first connection that succeeded told about the server and the account. */
interface ServerFacts {
  flavor: MysqlFlavor;
  /** Why every call is refused (a privileged account), when it is. */
  refusal: string | undefined;
}

interface ServerError extends Error {
  code?: string;
  errno?: number;
  fatal?: boolean;
}

function textRows(connection: PoolConnection, sql: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) =>
    connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows as Record<string, unknown>[]))),
  );
}

function boundValues(params: SqlParameters | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) {
    throw new QueryFailure(
      'not_a_read',
      'MySQL and MariaDB take positional parameters only: write ? in the SQL and pass params as an array.',
    );
  }
  return params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
}

class MysqlDatabase implements SqlDatabase {
  readonly name: string;
  readonly engine = 'mysql' as const;
  private readonly settings: SqlEngineSettings;
  private readonly connectionSettings: MysqlConnectionSettings;
  private readonly pool: Pool;
  private readonly stopper: MysqlStatementStopper;
  private readonly timeLimit: StatementTimeLimit;
  private readonly exportTimeLimit: ExportTimeLimit;
  private readonly admitted: AdmittedReadCache;
  /** Connections whose session holds the call settings: set up once, then again by the reset after each call. */
  private readonly sessionsSetUp = new WeakSet<PoolConnection>();
  private facts: Promise<ServerFacts> | undefined;
  private started: Promise<void> | undefined;
  private closed = false;

  constructor(name: string, connectionSettings: MysqlConnectionSettings, settings: SqlEngineSettings) {
    this.name = name;
    this.settings = settings;
    this.connectionSettings = connectionSettings;
    const size = settings.limits.maxConcurrentQueries;
    this.pool = mysql.createPool({
      ...connectionSettings.connection,
      connectionLimit: size,
      maxIdle: size,
      idleTimeout: 60_000,
      queueLimit: 0,
      // The reset after every call drops the server's prepared statements and empties mysql2's cache of them,
      // which costs in proportion to the cache's capacity (16,000 by default), not to what it holds.
      maxPreparedStatements: 16,
    });
    this.stopper = new MysqlStatementStopper(connectionSettings.connection);
    this.timeLimit = new StatementTimeLimit(settings.limits.timeoutMs);
    this.exportTimeLimit = new ExportTimeLimit(settings.limits.exportTimeoutMs);
    this.admitted = new AdmittedReadCache(settings.limits.timeoutMs);
  }

  /** Words for the operator and the model, scrubbed of the password should a driver ever echo it. */
  private scrub(text: string): string {
    const { password } = this.connectionSettings;
    return password === undefined || password === '' ? text : text.replaceAll(password, '********');
  }

  /** Why the database cannot be reached, in one line without the password. */
  private unreachableReason(error: ServerError): string {
    const code = error.code ?? (error.errno === undefined ? '' : `error ${error.errno}`);
    const detail = code === '' || error.message.includes(code) ? error.message : `${error.message} (${code})`;
    return this.scrub(
      `The database "${this.name}" (${this.connectionSettings.described}) cannot be reached: ${detail}`,
    );
  }

  private unreachable(error: ServerError): ToolError {
    return new ToolError(
      `${this.unreachableReason(error)}. Check that its server is running and the URL, user and password are right; then try again.`,
    );
  }

  /** Connects once and checks the account; see `SqlDatabase.start`. */
  start(): Promise<void> {
    this.started ??= this.connect().then(
      ({ connection, facts }) => {
        connection.release();
        if (facts.refusal !== undefined) throw new LocalError('config_invalid', facts.refusal);
      },
      (error: ServerError) => {
        if (error instanceof ToolError) throw error;
        this.settings.warn(
          `${this.unreachableReason(error)}; the server starts, and calls to it fail until it can be reached`,
        );
      },
    );
    return this.started;
  }

  private getConnection(): Promise<PoolConnection> {
    return new Promise((resolve, reject) =>
      this.pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    );
  }

  private async checkServer(connection: PoolConnection): Promise<ServerFacts> {
    const [identity] = await textRows(connection, 'SELECT VERSION() AS version, CURRENT_USER() AS account');
    const flavor: MysqlFlavor = /mariadb/i.test(String(identity?.version)) ? 'mariadb' : 'mysql';
    const grants = (await textRows(connection, 'SHOW GRANTS')).map((row) => String(Object.values(row)[0]));
    const findings = privilegedGrants(grants);
    for (const role of findings.roles) {
      const roleGrants = await textRows(connection, `SHOW GRANTS FOR ${connection.escape(role)}`).catch(() => []);
      findings.privileges.push(...privilegedGrants(roleGrants.map((row) => String(Object.values(row)[0]))).privileges);
    }
    const privileges = [...new Set(findings.privileges)];
    if (privileges.length === 0) return { flavor, refusal: undefined };
    const account = String(identity?.account);
    if (this.settings.allowPrivilegedRole) {
      this.settings.warn(
        `database "${this.name}": serving through the account ${account} (${privileges.join(', ')}) because --allow-privileged-role was given; every read-only layer still applies`,
      );
      return { flavor, refusal: undefined };
    }
    const schema = this.connectionSettings.connection.database;
    return { flavor, refusal: privilegedRoleMessage(this.name, account, privileges, schema) };
  }

  /**
   * A pooled connection whose server and account have been checked (once per
   * database). Rejects with the driver's error when the server cannot be
   * reached or the check cannot run.
   */
  private async connect(): Promise<{ connection: PoolConnection; facts: ServerFacts }> {
    if (this.closed) throw new ToolError(`The database "${this.name}" is closed.`);
    const connection = await this.getConnection();
    try {
      if (this.facts === undefined) {
        const facts = this.checkServer(connection);
        this.facts = facts;
        // The check runs again on the next connection when this one could not finish it.
        facts.catch(() => {
          if (this.facts === facts) this.facts = undefined;
        });
      }
      return { connection, facts: await this.facts };
    } catch (error) {
      connection.destroy();
      throw error;
    }
  }

  async run(request: QueryRequest, call: Parameters<SqlDatabase['run']>[1]): Promise<SqlOutcome> {
    let admitted: AdmittedRead | undefined;
    let params: unknown[] = [];
    try {
      if (request.kind === 'query' || request.kind === 'explain' || request.kind === 'export') {
        admitted = this.admitted.admit(request.sql);
      }
      if (request.kind === 'query' || request.kind === 'export') params = boundValues(request.params);
    } catch (error) {
      if (error instanceof QueryFailure) return { ok: false, code: error.code, message: error.message };
      throw error;
    }
    // A connection that died with its server (a restart) fails its first statement: it is dropped and another
    // one tried, so a restarted server costs no call that has not started.
    for (let attempt = 0; ; attempt++) {
      const { connection, facts } = await this.connect().catch((error: ServerError) => {
        throw error instanceof ToolError ? error : this.unreachable(error);
      });
      if (facts.refusal !== undefined) {
        connection.release();
        return { ok: false, code: 'database_unavailable', message: facts.refusal };
      }
      const settings = {
        flavor: facts.flavor,
        timeLimit: this.timeLimit,
        callTimeLimit: request.kind === 'export' ? this.exportTimeLimit : undefined,
        stopper: this.stopper,
        call,
      };
      if (!this.sessionsSetUp.has(connection)) {
        try {
          await openCallSession(connection, settings);
          this.sessionsSetUp.add(connection);
        } catch (error) {
          connection.destroy();
          if ((error as ServerError).fatal && attempt < this.settings.limits.maxConcurrentQueries) continue;
          throw this.unreachable(error as ServerError);
        }
      }
      let outcome: SqlOutcome;
      try {
        outcome = await guardedCall(connection, settings, (session) => this.answer(request, session, admitted, params));
      } catch (error) {
        if (error instanceof StaleConnection && attempt < this.settings.limits.maxConcurrentQueries) continue;
        if (error instanceof StaleConnection) throw this.unreachable(error);
        throw error;
      }
      return outcome.ok ? outcome : { ...outcome, message: this.scrub(outcome.message) };
    }
  }

  private async answer(
    request: QueryRequest,
    session: GuardedSession,
    admitted: AdmittedRead | undefined,
    params: unknown[],
  ): Promise<string> {
    const query = (sql: string, values?: readonly unknown[]) => session.rows(sql, values);
    const statement = admitted?.statement as string;
    if (admitted !== undefined && admitted.functions.length > 0) {
      const stored = await query(
        "SELECT DISTINCT LOWER(ROUTINE_NAME) AS name FROM information_schema.ROUTINES WHERE ROUTINE_TYPE = 'FUNCTION' " +
          `AND LOWER(ROUTINE_NAME) IN (${admitted.functions.map(() => '?').join(', ')})`,
        admitted.functions,
      );
      refuseStoredFunctions(stored.map((row) => String(row.name)));
    }
    switch (request.kind) {
      case 'query': {
        const started = performance.now();
        const collector = new MysqlRowCollector(request.limits);
        await session.stream(statement, params, collector, { last: true });
        return collector.toJson(performance.now() - started);
      }
      case 'export':
        return exportMysqlRows(session, statement, params, request);
      case 'explain':
        return mysqlQueryPlanAsJson(await query(`EXPLAIN ${statement}`));
      case 'list_tables':
        return await listMysqlTablesAsJson(query, request);
      case 'describe_table':
        return await describeMysqlTableAsJson(query, request.table);
      case 'schema_text':
        return JSON.stringify({ text: await mysqlSchemaText(query) });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([new Promise<void>((resolve) => this.pool.end(() => resolve())), this.stopper.close()]);
  }
}

/**
 * A MySQL or MariaDB database (`mysql://`, `mariadb://`), read-only whatever
 * the account may do: a statement gate from a real parser, one prepared
 * statement per call in a READ ONLY transaction with the time limit set on
 * the server, runaways stopped from a second connection, and every
 * connection reset before it is used again. A server that cannot be reached
 * at start is a warning; each call then fails until it can be.
 *
 * @example
 * const database = openMysqlDatabase({ name: 'shop', url: 'mysql://reader@db.internal/shop', password }, settings);
 * const outcome = await database.run({ kind: 'list_tables', database: 'shop' }, call);
 */
export function openMysqlDatabase(target: SqlDatabaseTarget, settings: SqlEngineSettings): SqlDatabase {
  return new MysqlDatabase(target.name, mysqlConnectionSettings(target, settings), settings);
}
