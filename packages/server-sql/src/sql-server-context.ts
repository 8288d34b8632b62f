import { type CallContext, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { QueryRequest } from './query-messages.ts';
import type { QueryProcessPool } from './query-process-pool.ts';
import type { SqlLimits } from './sql-server-options.ts';

/** What every tool of one SQL server shares. */
export interface SqlServerContext {
  pool: QueryProcessPool;
  /** Database names, in the order given. */
  databaseNames: readonly string[];
  limits: SqlLimits;
}

/**
 * The `database` argument: optional with one database, required (and one of
 * the names) with several.
 */
export function databaseArgument(context: SqlServerContext): z.ZodType<string | undefined> {
  const names = context.databaseNames as [string, ...string[]];
  // The enum says it all: with one database it is optional and the default.
  return names.length === 1 ? z.enum(names).optional() : z.enum(names);
}

export function chosenDatabase(context: SqlServerContext, database: string | undefined): string {
  return database ?? (context.databaseNames[0] as string);
}

/**
 * Runs a request in a query process, within the time limit, and returns its
 * JSON text; refusals and SQL errors become isError results with SQLite's
 * own words.
 */
export async function runInQueryProcess(
  context: SqlServerContext,
  request: QueryRequest,
  call: Pick<CallContext, 'signal' | 'progress'>,
): Promise<string> {
  const response = await context.pool.run(request, call.signal, call.progress);
  if (!response.ok) throw new ToolError(response.message);
  return response.json;
}
