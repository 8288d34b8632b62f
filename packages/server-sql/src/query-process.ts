/**
 * A query process: the only place a database is opened. The server runs
 * statements here, not in its own process, because a SQLite statement cannot
 * be stopped from outside once it is running (better-sqlite3 offers no
 * interrupt, and terminating a worker thread leaves the statement spinning in
 * native code); a process can always be killed. It also keeps a crash or an
 * out-of-memory end away from the server.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { QueryFailure } from './query-failure.ts';
import type { QueryProcessConfig, QueryRequest, QueryResponse, ReaderCheckRequest } from './query-messages.ts';
import { openReadOnlyConnection } from './read-only-connection.ts';
import { prepareReader } from './reader-statement.ts';
import { describeTableAsJson, queryPlanAsJson, schemaText } from './schema-introspection.ts';
import { readRowsAsJson } from './sql-rows.ts';
import { exportSqliteRows } from './sqlite-export.ts';
import { listSqliteTablesAsJson } from './sqlite-table-listing.ts';
import { StatementCache } from './statement-cache.ts';

const config = JSON.parse(process.argv[2] ?? '{}') as QueryProcessConfig;
const connections = new Map<string, { connection: Database.Database; statements: StatementCache }>();

function connectionFor(database: string) {
  let entry = connections.get(database);
  if (entry === undefined) {
    const path = config.databases[database];
    if (path === undefined) throw new QueryFailure('database_unavailable', `No database named "${database}".`);
    let connection: Database.Database;
    try {
      connection = openReadOnlyConnection(path, config.busyTimeoutMs);
    } catch (error) {
      throw new QueryFailure(
        'database_unavailable',
        `The database "${database}" cannot be opened: ${(error as Error).message}`,
      );
    }
    entry = { connection, statements: new StatementCache(connection) };
    connections.set(database, entry);
  }
  return entry;
}

/** Binding checks the count of placeholders against the parameters; nothing runs. */
function checkReader(connection: Database.Database, request: ReaderCheckRequest): string {
  const statement = prepareReader(connection, request.sql);
  try {
    statement.bind(new Array(request.parameterCount).fill(null));
  } catch (error) {
    throw new QueryFailure(
      'sql_error',
      `SQLite does not take ${request.parameterCount} value(s) for the statement: ${(error as Error).message}`,
    );
  }
  return '{}';
}

function answer(request: QueryRequest | ReaderCheckRequest): string {
  const { connection, statements } = connectionFor(request.database);
  switch (request.kind) {
    case 'query':
      return readRowsAsJson(statements.reader(request.sql), request.params, request.limits);
    case 'export':
      return exportSqliteRows(statements.reader(request.sql), request);
    case 'explain':
      prepareReader(connection, request.sql);
      return queryPlanAsJson(connection, request.sql);
    case 'list_tables':
      return listSqliteTablesAsJson(connection, request);
    case 'describe_table':
      return describeTableAsJson(connection, request.table);
    case 'schema_text':
      return JSON.stringify({ text: schemaText(connection) });
    case 'check_reader':
      return checkReader(connection, request);
  }
}

function respond(id: number, request: QueryRequest | ReaderCheckRequest): QueryResponse {
  try {
    return { id, ok: true, json: answer(request) };
  } catch (error) {
    if (request.kind === 'query' || request.kind === 'export') {
      connections.get(request.database)?.statements.forget(request.sql);
    }
    if (error instanceof QueryFailure) return { id, ok: false, code: error.code, message: error.message };
    const message = (error as Error).message ?? String(error);
    return { id, ok: false, code: 'sql_error', message: `SQLite error: ${message}` };
  }
}

process.on('message', (message: { id: number; request: QueryRequest | ReaderCheckRequest }) => {
  process.send?.(respond(message.id, message.request));
});
// The server went away (exit, crash, kill): there is no one left to answer.
process.on('disconnect', () => process.exit(0));
// While a statement runs this thread hears nothing, 'disconnect' included, for up to the time limit — or
// forever, if the server was killed and cannot kill us. A watchdog thread ends the process when its parent
// is gone, so no query process ever outlives the server. The parent's pid comes from the server itself:
// read here, it could already be the pid of whatever adopted us had the server died while we started.
const watchdog =
  'const { parentPid } = require("node:worker_threads").workerData; const check = () => { if (process.ppid !== parentPid) process.kill(process.pid, "SIGKILL"); }; check(); setInterval(check, 250);';
new Worker(watchdog, { eval: true, workerData: { parentPid: config.parentPid } }).unref();
// The server may already have gone; a closed channel is not worth a crash report.
process.send?.({ ready: true }, undefined, {}, () => {});
