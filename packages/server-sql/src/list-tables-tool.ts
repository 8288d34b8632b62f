import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import type { ListedTable } from './query-messages.ts';
import { chosenDatabase, databaseArgument, runOnDatabase, type SqlServerContext } from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createListTablesTool(context: SqlServerContext): Tool {
  const limit = context.limits.maxTables;
  return defineTool({
    name: 'list_tables',
    title: 'List tables and views',
    description:
      'Tables and views with column counts and row estimates. Start here. ' +
      'Filter by name or column name: substring or glob, any case.',
    // Built at definition: its database enum is this server's options.
    input: z.object({
      database: databaseArgument(context),
      name: checkedText(256).optional(),
      column: checkedText(256).optional(),
      // Checked, not advertised: the model takes it from next_offset.
      offset: z
        .number()
        .int()
        .refine((offset) => offset >= 0, 'must be 0 or more')
        .optional(),
    }),
    output: () =>
      z.object({
        database: z.string(),
        tables: z.array(
          z.object({
            name: z.string(),
            type: z.enum(['table', 'view']),
            column_count: z.number().int().nullable().describe('null when a view cannot be resolved'),
            row_estimate: z
              .number()
              .int()
              .nullable()
              .describe("The database's own estimate, not a count; null for views and when it keeps none"),
            columns: z.array(z.string()).optional().describe('With a column search: the matching columns'),
          }),
        ),
        total: z.number().int().describe('Tables and views that match, on every page'),
        truncated: z.boolean().describe('True when more match than this page holds'),
        next_offset: z.number().int().optional().describe('The offset of the next page, when truncated'),
        hint: z.string().optional(),
      }),
    jsonSchemas: toolJsonSchemas.list_tables,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ database, name, column, offset = 0 }, call) {
      const chosen = chosenDatabase(context, database);
      const json = await runOnDatabase(
        context,
        { kind: 'list_tables', database: chosen, name, column, offset, limit },
        call,
      );
      const { tables, total } = JSON.parse(json) as { tables: ListedTable[]; total: number };
      const next = offset + tables.length;
      if (next >= total) return { database: chosen, tables, total, truncated: false };
      return {
        database: chosen,
        tables,
        total,
        truncated: true,
        next_offset: next,
        hint: `${total - next} more match; call again with offset ${next}, or narrow the list with name or column.`,
      };
    },
  });
}
