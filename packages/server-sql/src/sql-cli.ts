import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { parseDatabaseSpecs } from './database-files.ts';
import { sqlServerOptions } from './sql-server-options.ts';

/** The `toolshed-sql` bin, derived from the options schema. */
export const sqlCli: ServerCli<typeof sqlServerOptions> = defineServerCli({
  name: 'toolshed-sql',
  version: packageVersion(import.meta.url),
  summary: 'Read-only SQL over SQLite files, as an MCP server over stdio or Streamable HTTP',
  options: sqlServerOptions,
  envPrefix: 'TOOLSHED_SQL',
  readers: { databases: { type: 'list', read: (specs) => parseDatabaseSpecs([specs].flat()) } },
  examples: [
    'toolshed-sql --db ./chinook.db',
    'toolshed-sql --db sales=./sales.db --db hr=./hr.db --max-rows 200',
    'toolshed-sql --db ./app.db --timeout-ms 3000 --http 127.0.0.1:3000',
  ],
});
