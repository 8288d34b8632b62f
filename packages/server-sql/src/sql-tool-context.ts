import { type ToolContext, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { QueryRequest } from './query-messages.ts';
import type { QueryProcessPool } from './query-process-pool.ts';
import type { ResolvedSqlLimits } from './sql-server-options.ts';

/** What every tool of one SQL server shares. */
export interface SqlToolContext {
  pool: QueryProcessPool;
  /** Database names, in the order given. */
  databaseNames: readonly string[];
  limits: ResolvedSqlLimits;
}

/**
 * The `database` argument: optional with one database, required (and one of
 * the names) with several.
 */
export function databaseArgument(context: SqlToolContext): z.ZodType<string | undefined> {
  const names = context.databaseNames as [string, ...string[]];
  if (names.length === 1) {
    return z.enum(names).optional().describe(`Database to use; there is one, "${names[0]}", and it is the default`);
  }
  return z.enum(names).describe(`Database to use: one of ${names.map((name) => `"${name}"`).join(', ')}`);
}

export function chosenDatabase(context: SqlToolContext, database: string | undefined): string {
  return database ?? (context.databaseNames[0] as string);
}

/**
 * Runs a request in a query process and returns its JSON text; refusals and
 * SQL errors become isError results with SQLite's own words. While it runs,
 * the client hears how long it has been going against the time limit.
 */
export async function runInQueryProcess(
  context: SqlToolContext,
  request: QueryRequest,
  toolContext: Pick<ToolContext, 'signal' | 'progress'>,
): Promise<string> {
  const { timeoutMs } = context.limits;
  const started = performance.now();
  const ticker = setInterval(
    () => {
      const elapsed = Math.round(performance.now() - started);
      toolContext.progress(elapsed, timeoutMs, `query running for ${elapsed} ms; it is stopped at ${timeoutMs} ms`);
    },
    Math.min(1000, Math.max(50, timeoutMs / 4)),
  );
  try {
    const response = await context.pool.run(request, toolContext.signal);
    if (!response.ok) throw new ToolError(response.message);
    return response.json;
  } finally {
    clearInterval(ticker);
  }
}
