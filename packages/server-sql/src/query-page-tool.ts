import { defineTool, structuredResult, type Tool, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkedText } from './checked-text.ts';
import { parametersArgument } from './sql-parameters-argument.ts';
import {
  chosenDatabase,
  databaseArgument,
  enginesOf,
  runOnDatabase,
  type SqlServerContext,
} from './sql-server-context.ts';

/** Rows a page holds at most: a screen or two of a table. */
export const maxPageRows = 200;

interface QueryRows {
  columns: { name: string; type: string | null }[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  truncated_by?: string;
}

/** The order of two cells: nulls last, numbers by value, everything else as text. */
function compareCells(left: unknown, right: unknown): number {
  if (left === right) return 0;
  if (left === null || left === undefined) return 1;
  if (right === null || right === undefined) return -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const text = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
  return text(left) < text(right) ? -1 : text(left) > text(right) ? 1 : 0;
}

/**
 * `query_page`: a page of a query's result for its view, sorted as the user
 * chose. App-only: clients that render no views never list it, so the rows a
 * user pages through never enter a model's context. It runs the statement the
 * model ran, through the same admission and under the same row, byte and time
 * caps (`max_rows` is the server's cap), then sorts and slices what came back:
 * no SQL is written around the statement, so paging adds nothing to admit.
 */
export function createQueryPageTool(context: SqlServerContext): Tool {
  const { maxRows, maxSqlLength, maxResultBytes, maxBlobBytes } = context.limits;
  return defineTool({
    name: 'query_page',
    title: 'A page of a query result',
    description: "A page of a query's rows for its view, sorted by a column; runs the statement under the same caps.",
    input: z.object({
      database: databaseArgument(context),
      sql: checkedText(maxSqlLength),
      params: parametersArgument(enginesOf(context)),
      offset: z.number().int().min(0).max(maxRows).default(0),
      limit: z.number().int().min(1).max(maxPageRows).default(50),
      sort_column: z.number().int().min(0).optional().describe('Index of the column to sort by'),
      sort_descending: z.boolean().default(false),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    meta: toolViewMeta({ visibility: ['app'] }),
    async run({ database, sql, params, offset, limit, sort_column, sort_descending }, call) {
      const json = await runOnDatabase(
        context,
        {
          kind: 'query',
          database: chosenDatabase(context, database),
          sql,
          params,
          limits: { maxRows, maxBytes: maxResultBytes, maxBlobBytes },
        },
        call,
      );
      const result = JSON.parse(json) as QueryRows;
      let rows = result.rows;
      const sorted = sort_column !== undefined && sort_column < result.columns.length;
      if (sorted) {
        const direction = sort_descending ? -1 : 1;
        rows = rows
          .map((row, index) => ({ row, index }))
          .sort((a, b) => direction * compareCells(a.row[sort_column], b.row[sort_column]) || a.index - b.index)
          .map(({ row }) => row);
      }
      const page: Record<string, unknown> = {
        columns: result.columns,
        rows: rows.slice(offset, offset + limit),
        offset,
        total_rows: result.row_count,
        truncated: result.truncated,
      };
      if (result.truncated_by !== undefined) page.truncated_by = result.truncated_by;
      if (sorted) page.sort = { column: sort_column, descending: sort_descending };
      return structuredResult(page);
    },
  });
}
