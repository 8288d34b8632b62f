import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { parseDatabaseSpecs } from './database-files.ts';
import { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';

/** The `toolshed-sql` bin, derived from the options schema. */
export const sqlCli: ServerCli<typeof sqlServerOptions> = defineServerCli({
  name: 'toolshed-sql',
  version: packageVersion(import.meta.url),
  summary:
    'Read-only SQL over SQLite files, PostgreSQL and MySQL/MariaDB, as an MCP server over stdio or Streamable HTTP',
  options: sqlServerOptions,
  envPrefix: 'TOOLSHED_SQL',
  readers: {
    databases: { type: 'list', read: (specs) => parseDatabaseSpecs([specs].flat()) },
    tools: { type: 'string', read: (path) => path },
  },
  examples: [
    'toolshed-sql --db ./chinook.db',
    'toolshed-sql --db sales=./sales.db --db hr=./hr.db --max-rows 200',
    'TOOLSHED_SQL_PASSWORD_APP=… toolshed-sql --db app=postgres://reader@db.example.com/app',
    'toolshed-sql --db ./app.db --timeout-ms 3000 --http 127.0.0.1:3000',
    'toolshed-sql --db shop=./shop.db --tools ./tools.yaml --no-ad-hoc',
  ],
});

/** `TOOLSHED_SQL_PASSWORD_<NAME>` of each database: the name in upper case, `-` as `_`. */
export function passwordVariable(name: string): string {
  return `TOOLSHED_SQL_PASSWORD_${name.toUpperCase().replaceAll('-', '_')}`;
}

/** The passwords the environment holds for the databases of these options. */
export function passwordsFromEnvironment(
  options: Pick<SqlServerOptions, 'databases' | 'passwords'>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const names =
    typeof options.databases === 'string'
      ? Object.keys(parseDatabaseSpecs([options.databases]))
      : Object.keys(options.databases);
  const passwords: Record<string, string> = { ...options.passwords };
  for (const name of names) {
    const password = env[passwordVariable(name)];
    if (password !== undefined && password !== '') passwords[name] = password;
  }
  return passwords;
}
