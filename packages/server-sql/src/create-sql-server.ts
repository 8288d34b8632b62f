import { accessSync, constants } from 'node:fs';
import { createMcpServer, LocalError, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
import { checkDatabaseSources, parseDatabaseSpecs } from './database-files.ts';
import { createDescribeTableTool } from './describe-table-tool.ts';
import { createExplainQueryTool } from './explain-query-tool.ts';
import { lazySqlDatabase } from './lazy-sql-database.ts';
import { createListTablesTool } from './list-tables-tool.ts';
import { mysqlConnectionSettings } from './mysql/mysql-connection-options.ts';
import { postgresPoolConfig } from './postgres/postgres-connection-config.ts';
import { createQueryTool } from './query-tool.ts';
import { createSchemaResource } from './schema-resource.ts';
import type { SqlDatabase, SqlEngineKind, SqlEngineSettings } from './sql-engine.ts';
import { enginesOf, type SqlServerContext } from './sql-server-context.ts';
import { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
import { openSqliteDatabases } from './sqlite-database.ts';

const serverVersion = packageVersion(import.meta.url);

const engineNames: Record<SqlEngineKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL' };

/** Every database of the options, opened in the order given; a failure closes those already open. */
function openDatabases(options: ReturnType<typeof sqlServerOptions.parse>): SqlDatabase[] {
  const sources = checkDatabaseSources(
    typeof options.databases === 'string' ? parseDatabaseSpecs([options.databases]) : options.databases,
  );
  if (options.databaseCa !== undefined) {
    try {
      accessSync(options.databaseCa, constants.R_OK);
    } catch (error) {
      throw new LocalError(
        'config_invalid',
        `--db-ca ${options.databaseCa} cannot be read: ${(error as Error).message}`,
      );
    }
  }
  const settings: SqlEngineSettings = {
    limits: options.limits,
    allowPrivilegedRole: options.allowPrivilegedRole,
    caFile: options.databaseCa,
    warn: (message) => process.stderr.write(`toolshed-sql: ${message}\n`),
  };
  const sqlitePaths: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources)) if (source.engine === 'sqlite') sqlitePaths[name] = source.path;
  const opened = new Map<string, SqlDatabase>();
  try {
    for (const database of openSqliteDatabases(sqlitePaths, options.limits)) opened.set(database.name, database);
    for (const [name, source] of Object.entries(sources)) {
      if (source.engine === 'sqlite') continue;
      const target = { name, url: source.url, password: options.passwords?.[name] };
      // Checked now, so that a mistake stops the server at start; the engine itself loads on first use.
      if (source.engine === 'postgres') postgresPoolConfig(target, settings);
      else mysqlConnectionSettings(target, settings);
      const load =
        source.engine === 'postgres'
          ? async () => (await import('./postgres/postgres-database.ts')).openPostgresDatabase(target, settings)
          : async () => (await import('./mysql/mysql-database.ts')).openMysqlDatabase(target, settings);
      opened.set(name, lazySqlDatabase(name, source.engine, load));
    }
  } catch (error) {
    for (const database of opened.values()) database.close().catch(() => {});
    throw error;
  }
  return Object.keys(sources).map((name) => opened.get(name) as SqlDatabase);
}

function describeDatabases(context: SqlServerContext): string {
  const names = context.databaseNames;
  const engines = enginesOf(context);
  if (engines.size === 1 && engines.has('sqlite')) {
    return `SQLite database${names.length > 1 ? 's' : ''} ${names.map((name) => `"${name}"`).join(', ')}`;
  }
  const list = [...context.databases.values()].map(
    (database) => `"${database.name}" (${engineNames[database.engine]})`,
  );
  return `database${names.length > 1 ? 's' : ''} ${list.join(', ')}`;
}

function serverFor(context: SqlServerContext): McpServer {
  const { limits, databaseNames: names } = context;
  const engines = enginesOf(context);
  return createMcpServer({
    name: 'toolshed-sql',
    title: engines.size === 1 && engines.has('sqlite') ? 'Toolshed SQL (read-only SQLite)' : 'Toolshed SQL (read-only)',
    version: serverVersion,
    instructions:
      `Read-only access to ${describeDatabases(context)}. ` +
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
    onClose: async () => {
      await Promise.all([...context.databases.values()].map((database) => database.close()));
    },
  });
}

function contextFor(input: SqlServerOptions): SqlServerContext {
  const options = parseOptions(sqlServerOptions, input, '@toolshed/server-sql options');
  const databases = openDatabases(options);
  return {
    databases: new Map(databases.map((database) => [database.name, database])),
    databaseNames: databases.map((database) => database.name),
    limits: options.limits,
  };
}

/**
 * A read-only SQL server over SQLite files and PostgreSQL and MySQL/MariaDB
 * databases: list_tables, describe_table, query and explain_query, and a
 * schema resource per database. A runaway statement is stopped where it
 * runs (SQLite: its query process is killed; servers: cancelled on the
 * server), so it never holds the server. Closing the server ends every
 * process and connection.
 *
 * A privileged database role found after start refuses every call; use
 * `startSqlServer` to refuse at start instead.
 *
 * @example
 * const server = createSqlServer({ databases: { sales: './sales.db' }, limits: { timeoutMs: 5000 } });
 * await server.connect(createStdioServerTransport());
 */
export function createSqlServer(input: SqlServerOptions): McpServer {
  const context = contextFor(input);
  for (const database of context.databases.values()) database.start?.().catch(() => {});
  return serverFor(context);
}

/**
 * `createSqlServer`, once every database server has been asked what the role
 * may do: a privileged role (without `allowPrivilegedRole`) rejects with a
 * `config_invalid` error naming the privilege. An unreachable database is a
 * warning, not a refusal.
 */
export async function startSqlServer(input: SqlServerOptions): Promise<McpServer> {
  const context = contextFor(input);
  try {
    await Promise.all([...context.databases.values()].map((database) => database.start?.()));
  } catch (error) {
    await Promise.all([...context.databases.values()].map((database) => database.close()));
    throw error;
  }
  return serverFor(context);
}
