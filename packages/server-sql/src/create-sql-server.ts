import { accessSync, constants } from 'node:fs';
import { createMcpServer, LocalError, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
import { checkDatabaseSources, parseDatabaseSpecs } from './database-files.ts';
import { createDescribeTableTool } from './describe-table-tool.ts';
import { createExplainQueryTool } from './explain-query-tool.ts';
import { ExportDirectory } from './export-directory.ts';
import { createExportQueryTool } from './export-query-tool.ts';
import { lazySqlDatabase } from './lazy-sql-database.ts';
import { createListTablesTool } from './list-tables-tool.ts';
import { mysqlConnectionSettings } from './mysql/mysql-connection-options.ts';
import { postgresPoolConfig } from './postgres/postgres-connection-config.ts';
import { createQueryPageTool } from './query-page-tool.ts';
import { createQueryTool } from './query-tool.ts';
import { createQueryView } from './query-view.ts';
import { createSchemaResource } from './schema-resource.ts';
import type { SqlDatabase, SqlEngineKind, SqlEngineSettings } from './sql-engine.ts';
import { enginesOf, type SqlServerContext } from './sql-server-context.ts';
import { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
import { openSqliteDatabases } from './sqlite-database.ts';
import { SshTunnel, type TunnelEndpoint } from './ssh/ssh-tunnel.ts';
import { sshTunnelSettings } from './ssh/ssh-tunnel-settings.ts';
import { tunneledSqlDatabase } from './ssh/tunneled-sql-database.ts';
import { checkVettedStatements } from './vetted-tools/check-vetted-statements.ts';
import { vettedStatements } from './vetted-tools/vetted-statements.ts';
import { createVettedTool, type VettedStatement } from './vetted-tools/vetted-tool.ts';
import { loadToolsFile } from './vetted-tools/vetted-tools-file.ts';

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
  const tunnels = sshTunnelSettings(options, sources, options.passwords, settings);
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
          ? async (through?: TunnelEndpoint) =>
              (await import('./postgres/postgres-database.ts')).openPostgresDatabase({ ...target, through }, settings)
          : async (through?: TunnelEndpoint) =>
              (await import('./mysql/mysql-database.ts')).openMysqlDatabase({ ...target, through }, settings);
      const tunnel = tunnels.get(name);
      opened.set(
        name,
        tunnel === undefined
          ? lazySqlDatabase(name, source.engine, load)
          : tunneledSqlDatabase(name, source.engine, new SshTunnel(tunnel), load),
      );
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

/** What a server serves beyond its databases: which of its own tools, and the vetted ones. */
interface ServedTools {
  adHoc: boolean;
  schemaTools: boolean;
  vetted: { source: string; statements: VettedStatement[] } | undefined;
  /** Where export_query writes, when the operator gave an export directory (and ad-hoc SQL is on). */
  exports: ExportDirectory | undefined;
}

function instructionsFor(context: SqlServerContext, served: ServedTools): string {
  const { limits } = context;
  const caps =
    `Results are capped at ${limits.maxRows} rows and ${limits.maxResultBytes} bytes and say when they were cut; ` +
    `statements are stopped after ${limits.timeoutMs} ms`;
  const databases = `Read-only access to ${describeDatabases(context)}. `;
  if (served.adHoc) {
    const vetted = served.vetted === undefined ? '' : 'Prefer the named query tools where one fits. ';
    return (
      databases +
      vetted +
      `Use ${served.schemaTools ? 'list_tables, then describe_table, then ' : ''}query with one SELECT per call and values in params. ` +
      `${caps} (explain_query shows why a query is slow).` +
      (served.exports === undefined
        ? ''
        : ' For a whole result too big to read, export_query writes it to a new CSV or JSONL file instead.')
    );
  }
  return `${databases}Each tool runs one vetted query; pass its parameters. ${caps}.`;
}

function serverFor(context: SqlServerContext, served: ServedTools, checked: Promise<void>): McpServer {
  const engines = enginesOf(context);
  const tools = [
    ...(served.schemaTools ? [createListTablesTool(context), createDescribeTableTool(context)] : []),
    ...(served.adHoc ? [createQueryTool(context), createQueryPageTool(context), createExplainQueryTool(context)] : []),
    ...(served.adHoc && served.exports !== undefined ? [createExportQueryTool(context, served.exports)] : []),
    ...(served.vetted?.statements ?? []).map((statement) => createVettedTool(context, statement, checked)),
  ];
  if (tools.length === 0) {
    throw new LocalError(
      'config_invalid',
      'no tools left to serve: give a tools file (--tools) or keep the ad-hoc or schema tools',
    );
  }
  return createMcpServer({
    name: 'toolshed-sql',
    title: engines.size === 1 && engines.has('sqlite') ? 'Toolshed SQL (read-only SQLite)' : 'Toolshed SQL (read-only)',
    version: serverVersion,
    instructions: instructionsFor(context, served),
    tools,
    resources: [
      ...(served.schemaTools ? context.databaseNames.map((name) => createSchemaResource(context, name)) : []),
      // The view shows query's rows and the vetted tools' alike.
      ...(served.adHoc || served.vetted !== undefined ? [createQueryView()] : []),
    ],
    onClose: async () => {
      await Promise.all([...context.databases.values()].map((database) => database.close()));
    },
  });
}

function contextFor(input: SqlServerOptions): { context: SqlServerContext; served: ServedTools } {
  const options = parseOptions(sqlServerOptions, input, '@toolshed/server-sql options');
  if (options.toolset !== undefined && options.tools === undefined) {
    throw new LocalError('config_invalid', `--toolset ${options.toolset} needs a tools file (--tools FILE)`);
  }
  // Read before any database is opened, so that a mistake in them leaves nothing to close.
  const loaded = options.tools === undefined ? undefined : loadToolsFile(options.tools);
  const exports = options.exportDirectory === undefined ? undefined : new ExportDirectory(options.exportDirectory);
  const databases = openDatabases(options);
  const context: SqlServerContext = {
    databases: new Map(databases.map((database) => [database.name, database])),
    databaseNames: databases.map((database) => database.name),
    limits: options.limits,
  };
  try {
    const vetted =
      loaded === undefined
        ? undefined
        : { source: loaded.source, statements: vettedStatements(context, loaded, options.toolset) };
    return { context, served: { adHoc: options.adHoc, schemaTools: options.schemaTools, vetted, exports } };
  } catch (error) {
    for (const database of databases) database.close().catch(() => {});
    throw error;
  }
}

/** Every vetted statement through its engine's gate. */
function checkServedStatements(context: SqlServerContext, served: ServedTools): Promise<void> {
  return served.vetted === undefined
    ? Promise.resolve()
    : checkVettedStatements(context, served.vetted.source, served.vetted.statements);
}

/**
 * A read-only SQL server over SQLite files and PostgreSQL and MySQL/MariaDB
 * databases: list_tables, describe_table, query and explain_query, and a
 * schema resource per database; with `exportDirectory`, export_query writes
 * whole results to new files there. A runaway statement is stopped where it
 * runs (SQLite: its query process is killed; servers: cancelled on the
 * server), so it never holds the server. Closing the server ends every
 * process and connection.
 *
 * A privileged database role found after start refuses every call, and a
 * vetted statement (from `tools`) that its engine's read-only gate refuses
 * fails its tool's calls; use `startSqlServer` to refuse both at start
 * instead.
 *
 * @example
 * const server = createSqlServer({ databases: { sales: './sales.db' }, limits: { timeoutMs: 5000 } });
 * await server.connect(createStdioServerTransport());
 */
export function createSqlServer(input: SqlServerOptions): McpServer {
  const { context, served } = contextFor(input);
  for (const database of context.databases.values()) database.start?.().catch(() => {});
  const checked = checkServedStatements(context, served);
  checked.catch((error: Error) => process.stderr.write(`toolshed-sql: ${error.message}\n`));
  try {
    return serverFor(context, served, checked);
  } catch (error) {
    for (const database of context.databases.values()) database.close().catch(() => {});
    throw error;
  }
}

/**
 * `createSqlServer`, once every database server has been asked what the role
 * may do and every vetted statement has passed its engine's read-only gate:
 * a privileged role (without `allowPrivilegedRole`) or a refused statement
 * rejects with a `config_invalid` error naming the privilege, or the tool and
 * the reason. An unreachable database is a warning, not a refusal.
 */
export async function startSqlServer(input: SqlServerOptions): Promise<McpServer> {
  const { context, served } = contextFor(input);
  try {
    await Promise.all([
      ...[...context.databases.values()].map((database) => database.start?.()),
      checkServedStatements(context, served),
    ]);
    return serverFor(context, served, Promise.resolve());
  } catch (error) {
    await Promise.all([...context.databases.values()].map((database) => database.close()));
    throw error;
  }
}
