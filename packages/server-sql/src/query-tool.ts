import { defineTool, onFirstUse, structuredResult, type Tool, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import { queryViewUri } from './query-view.ts';
import { parametersArgument } from './sql-parameters-argument.ts';
import {
  chosenDatabase,
  databaseArgument,
  enginesOf,
  runOnDatabase,
  type SqlServerContext,
} from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/** The `query` tool's result, as advertised in its outputSchema; built once, shared with the vetted tools. */
export const queryOutput: () => z.ZodObject = onFirstUse(() =>
  z.object({
    columns: z
      .array(
        z.object({ name: z.string(), type: z.string().nullable().describe('Declared type; null for expressions') }),
      )
      .describe('Result columns in order'),
    // Checked as an array of anything (rows come from our own query process), advertised as an array of
    // arrays: validating every value of a 1,000-row result cost 0.13 ms a call, checking each row 0.02 ms.
    rows: z
      .array(z.unknown())
      .meta({ items: { type: 'array' } })
      .describe(
        'Rows as arrays in column order. Integers beyond ±2^53 are strings; BLOBs are {type:"blob", bytes, base64} (base64 null when too large); NULL is null',
      ),
    row_count: z.number().int(),
    truncated: z.boolean().describe('True when more rows existed than were returned'),
    truncated_by: z.enum(['max_rows', 'max_bytes']).optional(),
    hint: z.string().optional().describe('How to get the rest when truncated'),
    elapsed_ms: z.number().describe('Time SQLite took to produce and encode the rows, in milliseconds'),
  }),
);

export function createQueryTool(context: SqlServerContext): Tool {
  const { maxRows, maxSqlLength } = context.limits;
  const engines = enginesOf(context);
  const onlySqlite = engines.size === 1 && engines.has('sqlite');
  return defineTool({
    name: 'query',
    title: 'Run a read-only SQL query',
    description:
      `One read-only ${onlySqlite ? 'SQLite ' : ''}statement (SELECT/WITH/VALUES), values in params. ` +
      'Rows past max_rows are cut and flagged; page with LIMIT/OFFSET.',
    // Built at definition: its database enum, SQL length and row bounds are this server's options.
    input: z.object({
      database: databaseArgument(context),
      sql: checkedText(maxSqlLength),
      params: parametersArgument(engines),
      max_rows: z.number().int().min(1).max(maxRows).default(Math.min(100, maxRows)),
    }),
    output: queryOutput,
    jsonSchemas: toolJsonSchemas.query,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // Clients that render views show the rows as a table the user pages through with query_page.
    meta: toolViewMeta({ resourceUri: queryViewUri }),
    // A statement still running after two seconds goes on as a task for clients that take tasks; the call's
    // signal is the task's then, so tasks/cancel stops it on the database as a cancelled request does.
    task: 'optional',
    async run({ database, sql, params, max_rows }, call) {
      const json = await runOnDatabase(
        context,
        {
          kind: 'query',
          database: chosenDatabase(context, database),
          sql,
          params,
          limits: {
            maxRows: max_rows,
            maxBytes: context.limits.maxResultBytes,
            maxBlobBytes: context.limits.maxBlobBytes,
          },
        },
        call,
      );
      return structuredResult(JSON.parse(json), { text: json });
    },
  });
}
