import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { chosenDatabase, databaseArgument, runOnDatabase, type SqlServerContext } from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createListTablesTool(context: SqlServerContext): Tool {
  return defineTool({
    name: 'list_tables',
    title: 'List tables and views',
    description: 'List tables and views with column counts. Start here.',
    // Built at definition: its database enum is this server's options.
    input: z.object({ database: databaseArgument(context) }),
    output: () =>
      z.object({
        database: z.string(),
        tables: z.array(
          z.object({
            name: z.string(),
            type: z.enum(['table', 'view']),
            column_count: z.number().int().nullable().describe('null when a view cannot be resolved'),
          }),
        ),
      }),
    jsonSchemas: toolJsonSchemas.list_tables,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ database }, call) {
      const name = chosenDatabase(context, database);
      const json = await runOnDatabase(context, { kind: 'list_tables', database: name }, call);
      return { database: name, ...JSON.parse(json) };
    },
  });
}
