import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import {
  chosenDatabase,
  databaseArgument,
  enginesOf,
  runOnDatabase,
  type SqlServerContext,
} from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createExplainQueryTool(context: SqlServerContext): Tool {
  const engines = enginesOf(context);
  const onlySqlite = engines.size === 1 && engines.has('sqlite');
  return defineTool({
    name: 'explain_query',
    title: 'Explain a query plan',
    description: `${onlySqlite ? "SQLite's plan" : 'The plan'} for a slow query, without running it.`,
    // Built at definition: its database enum and SQL length bound are this server's options.
    input: z.object({
      database: databaseArgument(context),
      sql: checkedText(context.limits.maxSqlLength),
    }),
    output: () =>
      z.object({
        database: z.string(),
        plan: z.array(z.object({ id: z.number().int(), parent: z.number().int(), detail: z.string() })),
        tree: z.string().describe('The plan as an indented tree'),
        full_scans: z.array(z.string()).describe('Steps that read a whole table'),
        temp_b_trees: z.array(z.string()).describe('Steps that sort or deduplicate in a temporary B-tree'),
      }),
    jsonSchemas: toolJsonSchemas.explain_query,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ database, sql }, call) {
      const name = chosenDatabase(context, database);
      const json = await runOnDatabase(context, { kind: 'explain', database: name, sql }, call);
      return { database: name, ...JSON.parse(json) };
    },
  });
}
