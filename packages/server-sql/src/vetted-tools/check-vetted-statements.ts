import { LocalError } from '@toolshed/mcp-core';
import { QueryFailure } from '../query-failure.ts';
import type { SqlServerContext } from '../sql-server-context.ts';
import type { VettedStatement } from './vetted-tool.ts';

/** Why the engine's gate refuses a statement, or undefined when it admits it. */
async function refusal(context: SqlServerContext, statement: VettedStatement): Promise<string | undefined> {
  const database = context.databases.get(statement.database);
  const { sql } = statement.bound;
  try {
    switch (database?.engine) {
      case 'sqlite': {
        const outcome = await database.checkReader?.(sql, statement.bound.order.length);
        return outcome === undefined || outcome.ok ? undefined : outcome.message;
      }
      case 'postgres': {
        const { checkPostgresStatement, loadPostgresParser } = await import('../postgres/postgres-statement-gate.ts');
        await loadPostgresParser();
        checkPostgresStatement(sql);
        return undefined;
      }
      case 'mysql': {
        const { admitMysqlRead } = await import('../mysql/mysql-statement-gate.ts');
        admitMysqlRead(sql, context.limits.timeoutMs);
        return undefined;
      }
      default:
        return `there is no database "${statement.database}"`;
    }
  } catch (error) {
    if (error instanceof QueryFailure) return error.message;
    throw error;
  }
}

/**
 * Puts every vetted statement through its engine's read-only gate — the
 * same gate `query` uses — before the server serves anything: a statement
 * that writes, stacks statements or does not parse stops the server with
 * the file, the tool and the gate's reason, never a call later.
 */
export async function checkVettedStatements(
  context: SqlServerContext,
  source: string,
  statements: readonly VettedStatement[],
): Promise<void> {
  for (const statement of statements) {
    const reason = await refusal(context, statement);
    if (reason !== undefined) {
      throw new LocalError(
        'config_invalid',
        `${source}: tool "${statement.definition.name}": the statement is refused: ${reason}`,
      );
    }
  }
}
