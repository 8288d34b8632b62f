import { ExportTimeLimit } from './export-time-limit.ts';
import { QueryProcessPool } from './query-process-pool.ts';
import type { SqlDatabase } from './sql-engine.ts';
import type { SqlLimits } from './sql-server-options.ts';
import { StatementTimeLimit } from './statement-time-limit.ts';

/**
 * The SQLite files of one server as databases. They share one pool of query
 * processes (each process opens every file), so the cap on statements running
 * at once holds across files as it always has.
 */
export function openSqliteDatabases(paths: Readonly<Record<string, string>>, limits: SqlLimits): SqlDatabase[] {
  const names = Object.keys(paths);
  if (names.length === 0) return [];
  const pool = new QueryProcessPool({
    databases: { ...paths },
    maxProcesses: limits.maxConcurrentQueries,
    timeLimit: new StatementTimeLimit(limits.timeoutMs),
    // Results are capped far below this; the heap only holds one result at a time.
    maxOldSpaceMb: Math.max(64, Math.ceil((limits.maxResultBytes * 8) / 1024 / 1024) + 64),
  });
  const exportTimeLimit = new ExportTimeLimit(limits.exportTimeoutMs);
  let closed: Promise<void> | undefined;
  return names.map(
    (name): SqlDatabase => ({
      name,
      engine: 'sqlite',
      async run(request, call) {
        const timeLimit = request.kind === 'export' ? exportTimeLimit : undefined;
        const response = await pool.run(request, call.signal, call.progress, timeLimit);
        return response.ok
          ? { ok: true, json: response.json }
          : { ok: false, code: response.code, message: response.message };
      },
      async checkReader(sql, parameterCount) {
        const response = await pool.run(
          { kind: 'check_reader', database: name, sql, parameterCount },
          new AbortController().signal,
        );
        return response.ok
          ? { ok: true, json: response.json }
          : { ok: false, code: response.code, message: response.message };
      },
      close() {
        closed ??= pool.close();
        return closed;
      },
    }),
  );
}
