import { createMcpServer, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
import { checkDatabaseFiles, parseDatabaseSpecs } from './database-files.ts';
import { createDescribeTableTool } from './describe-table-tool.ts';
import { createExplainQueryTool } from './explain-query-tool.ts';
import { createListTablesTool } from './list-tables-tool.ts';
import { QueryProcessPool } from './query-process-pool.ts';
import { createQueryTool } from './query-tool.ts';
import { createSchemaResource } from './schema-resource.ts';
import type { SqlServerContext } from './sql-server-context.ts';
import { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
import { StatementTimeLimit } from './statement-time-limit.ts';

const serverVersion = packageVersion(import.meta.url);

/**
 * A read-only SQL server over SQLite files: list_tables, describe_table,
 * query and explain_query, and a schema resource per database. Statements run
 * in query processes that are killed at the time limit, so a runaway query
 * never holds the server. Closing the server ends them.
 *
 * @example
 * const server = createSqlServer({ databases: { sales: './sales.db' }, limits: { timeoutMs: 5000 } });
 * await server.connect(createStdioServerTransport());
 */
export function createSqlServer(input: SqlServerOptions): McpServer {
  const options = parseOptions(sqlServerOptions, input, '@toolshed/server-sql options');
  const databases = checkDatabaseFiles(
    typeof options.databases === 'string' ? parseDatabaseSpecs([options.databases]) : options.databases,
  );
  const { limits } = options;
  const pool = new QueryProcessPool({
    databases,
    maxProcesses: limits.maxConcurrentQueries,
    timeLimit: new StatementTimeLimit(limits.timeoutMs),
    // Results are capped far below this; the heap only holds one result at a time.
    maxOldSpaceMb: Math.max(64, Math.ceil((limits.maxResultBytes * 8) / 1024 / 1024) + 64),
  });
  pool.warm();
  const context: SqlServerContext = { pool, databaseNames: Object.keys(databases), limits };
  const names = context.databaseNames;
  return createMcpServer({
    name: 'toolshed-sql',
    title: 'Toolshed SQL (read-only SQLite)',
    version: serverVersion,
    instructions:
      `Read-only access to SQLite database${names.length > 1 ? 's' : ''} ${names.map((name) => `"${name}"`).join(', ')}. ` +
      'Use list_tables, then describe_table, then query with one SELECT per call and values in params. ' +
      `Results are capped at ${limits.maxRows} rows and ${limits.maxResultBytes} bytes and say when they were cut; ` +
      `statements are stopped after ${limits.timeoutMs} ms (explain_query shows why a query is slow).`,
    tools: [
      createListTablesTool(context),
      createDescribeTableTool(context),
      createQueryTool(context),
      createExplainQueryTool(context),
    ],
    resources: names.map((name) => createSchemaResource(context, name)),
    onClose: () => pool.close(),
  });
}
