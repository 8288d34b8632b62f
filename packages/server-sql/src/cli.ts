/**
 * The `toolshed-sql` bin: flags and environment → createSqlServer → stdio,
 * or Streamable HTTP with --http.
 */
import { defineCli, httpCliOptions, limitOption, runCli, serve, withoutHttpValues } from '@toolshed/mcp-core';
import { createSqlServer } from './create-sql-server.ts';
import { parseDatabaseSpecs } from './database-files.ts';
import { defaultSqlLimits } from './sql-server-options.ts';

const cli = defineCli({
  name: 'toolshed-sql',
  version: '0.1.0',
  summary: 'Read-only SQL over SQLite files, as an MCP server over stdio or Streamable HTTP',
  options: {
    db: {
      type: 'list',
      env: 'TOOLSHED_SQL_DB',
      placeholder: 'PATH|NAME=PATH',
      required: true,
      description: 'SQLite file to serve, read-only; repeat for several (tools then take a `database` argument)',
    },
    maxRows: limitOption('TOOLSHED_SQL_MAX_ROWS', 'Rows a query may return at most', defaultSqlLimits.maxRows),
    maxResultBytes: limitOption(
      'TOOLSHED_SQL_MAX_RESULT_BYTES',
      'Bytes of JSON a query result may hold at most',
      defaultSqlLimits.maxResultBytes,
    ),
    maxBlobBytes: limitOption(
      'TOOLSHED_SQL_MAX_BLOB_BYTES',
      'BLOBs larger than this are returned as their length only',
      defaultSqlLimits.maxBlobBytes,
    ),
    timeoutMs: limitOption(
      'TOOLSHED_SQL_TIMEOUT_MS',
      'Stop a statement after this many milliseconds',
      defaultSqlLimits.timeoutMs,
    ),
    maxConcurrentQueries: limitOption(
      'TOOLSHED_SQL_MAX_CONCURRENT_QUERIES',
      'Statements running at once, each in its own query process',
      defaultSqlLimits.maxConcurrentQueries,
    ),
    maxSqlLength: limitOption(
      'TOOLSHED_SQL_MAX_SQL_LENGTH',
      'Characters of SQL a call may send',
      defaultSqlLimits.maxSqlLength,
    ),
    ...httpCliOptions,
  },
  examples: [
    'toolshed-sql --db ./chinook.db',
    'toolshed-sql --db sales=./sales.db --db hr=./hr.db --max-rows 200',
    'toolshed-sql --db ./app.db --timeout-ms 3000 --http 127.0.0.1:3000',
  ],
});

await runCli(cli, process.argv.slice(2), process.env, (options) => {
  const { db, ...limits } = withoutHttpValues(options);
  return serve(createSqlServer({ ...limits, databases: parseDatabaseSpecs(db) }), options);
});
