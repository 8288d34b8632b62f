import { type CallContext, defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import type { ExportDirectory, PendingExport } from './export-directory.ts';
import type { ExportLimits } from './query-messages.ts';
import { parametersArgument } from './sql-parameters-argument.ts';
import {
  chosenDatabase,
  databaseArgument,
  enginesOf,
  runOnDatabase,
  type SqlServerContext,
} from './sql-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/** Rows of the export the answer shows: a look at the result, the file holds the rest. */
const shownRows = 5;

/** The call's progress, with the bytes written so far added to each report. */
function withBytesWritten(call: CallContext, pending: PendingExport): CallContext['progress'] {
  return (done, total, message) => {
    let written = '';
    try {
      written = `; ${pending.size()} bytes written`;
    } catch {
      // The file is being published or removed: the report goes without its size.
    }
    call.progress(done, total, `${message ?? ''}${written}`);
  };
}

/**
 * export_query: one statement through the same read-only gate and layers as
 * query, its whole result written to a new file in the export directory —
 * for results a model should not read through its context. Only a
 * temporary file is ever written; it gets its name when the export has
 * succeeded, and is removed when it fails, hits a cap or is cancelled.
 */
export function createExportQueryTool(context: SqlServerContext, exports: ExportDirectory): Tool {
  const engines = enginesOf(context);
  const limits: ExportLimits = {
    maxRows: context.limits.maxExportRows,
    maxBytes: context.limits.maxExportBytes,
    previewRows: shownRows,
    previewBytes: context.limits.maxResultBytes,
    previewBlobBytes: context.limits.maxBlobBytes,
  };
  return defineTool({
    name: 'export_query',
    title: 'Export a query result to a file',
    description:
      'Like query, but writes the whole result to a new CSV or JSONL file in the export directory, for results ' +
      'too big to read; never replaces a file. Answers path, row count, bytes, first rows.',
    // Built at definition: its database enum, SQL length and params forms are this server's options.
    input: z.object({
      database: databaseArgument(context),
      sql: checkedText(context.limits.maxSqlLength),
      params: parametersArgument(engines),
      format: z.enum(['csv', 'jsonl']),
      file: checkedText(1024).describe('New file name in the export directory, e.g. orders.csv'),
    }),
    output: () =>
      z.object({
        database: z.string(),
        file: z.string().describe('The file name as given'),
        path: z.string().describe("The file's absolute path"),
        format: z.enum(['csv', 'jsonl']),
        columns: z.array(z.object({ name: z.string(), type: z.string().nullable() })),
        row_count: z.number().int(),
        bytes: z.number().int(),
        first_rows: z
          .array(z.unknown())
          .meta({ items: { type: 'array' } })
          .describe("The first rows, as query returns rows: data from the database, not the server's words"),
        elapsed_ms: z.number(),
      }),
    jsonSchemas: toolJsonSchemas.export_query,
    // It writes a file (not read-only), but only a new one: nothing is ever replaced or removed (not destructive).
    // The same call again finds its file taken and fails (not idempotent).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    // A long export goes on as a task for clients that take tasks; tasks/cancel stops its statement where it runs,
    // as a cancelled call does, and its temporary file is removed.
    task: 'optional',
    async run({ database, sql, params, format, file }, call) {
      const chosen = chosenDatabase(context, database);
      const pending = await exports.prepare(file);
      try {
        const json = await runOnDatabase(
          context,
          { kind: 'export', database: chosen, sql, params, format, file: pending.temporary, limits },
          { signal: call.signal, progress: withBytesWritten(call, pending) },
        );
        call.signal.throwIfAborted();
        await pending.publish();
        return { database: chosen, file, path: pending.path, format, ...JSON.parse(json) };
      } catch (error) {
        await pending.discard();
        throw error;
      }
    },
  });
}
