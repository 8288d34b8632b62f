import { type CallContext, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { QueryRequest } from './query-messages.ts';
import type { SqlDatabase, SqlEngineKind } from './sql-engine.ts';
import type { SqlLimits } from './sql-server-options.ts';

/** What every tool of one SQL server shares. */
export interface SqlServerContext {
  /** Database name → the database, in the order given. */
  databases: ReadonlyMap<string, SqlDatabase>;
  /** Database names, in the order given. */
  databaseNames: readonly string[];
  limits: SqlLimits;
}

/** The engines the server's databases are held in, each once. */
export function enginesOf(context: SqlServerContext): Set<SqlEngineKind> {
  return new Set([...context.databases.values()].map((database) => database.engine));
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
 * Runs a request on its database, within the time limit, and returns its JSON
 * text; refusals and SQL errors become isError results in the engine's own
 * words.
 */
export async function runOnDatabase(
  context: SqlServerContext,
  request: QueryRequest,
  call: Pick<CallContext, 'signal' | 'progress'>,
): Promise<string> {
  const database = context.databases.get(request.database);
  if (database === undefined) throw new ToolError(`No database named "${request.database}".`);
  const outcome = await database.run(request, call);
  if (!outcome.ok) throw new ToolError(outcome.message);
  return outcome.json;
}
