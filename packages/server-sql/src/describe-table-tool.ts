import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import { chosenDatabase, databaseArgument, runOnDatabase, type SqlServerContext } from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createDescribeTableTool(context: SqlServerContext): Tool {
  return defineTool({
    name: 'describe_table',
    title: 'Describe a table',
    description:
      'Columns, keys, indexes and CREATE statement of a table or view; an unknown name gets the closest ones.',
    // Built at definition: its database enum is this server's options.
    input: z.object({
      database: databaseArgument(context),
      table: checkedText(1024),
    }),
    output: () =>
      z.object({
        database: z.string(),
        name: z.string(),
        quoted: z.string().describe('The name quoted for SQL'),
        type: z.enum(['table', 'view']),
        columns: z.array(
          z.object({
            name: z.string(),
            quoted: z.string(),
            type: z.string().describe('Declared type, empty when none'),
            nullable: z.boolean(),
            default: z.string().nullable().describe('Default value as SQL text'),
            primary_key_position: z.number().int().nullable(),
            generated: z.boolean(),
          }),
        ),
        primary_key: z.array(z.string()),
        foreign_keys: z.array(
          z.object({
            table: z.string(),
            columns: z.array(z.string()),
            references: z.array(z.string().nullable()).describe('Referenced columns; null means the primary key'),
            on_update: z.string(),
            on_delete: z.string(),
          }),
        ),
        indexes: z.array(
          z.object({
            name: z.string(),
            unique: z.boolean(),
            origin: z.string(),
            partial: z.boolean(),
            columns: z.array(z.string()),
          }),
        ),
        sql: z.string().nullable(),
      }),
    jsonSchemas: toolJsonSchemas.describe_table,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ database, table }, call) {
      const name = chosenDatabase(context, database);
      const json = await runOnDatabase(context, { kind: 'describe_table', database: name, table }, call);
      return { database: name, ...JSON.parse(json) };
    },
  });
}
