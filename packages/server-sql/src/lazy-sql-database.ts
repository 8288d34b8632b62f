import type { SqlDatabase, SqlEngineKind } from './sql-engine.ts';

/**
 * A network database whose engine is loaded when it is first used: the
 * drivers and parsers of PostgreSQL and MySQL (pg, libpg-query, mysql2) cost
 * a server that serves only SQLite files about 250 ms of CPU and 50 MB at
 * start otherwise. The settings were checked before, so a mistake in them
 * still stops the server at once.
 */
export function lazySqlDatabase(name: string, engine: SqlEngineKind, load: () => Promise<SqlDatabase>): SqlDatabase {
  let loading: Promise<SqlDatabase> | undefined;
  const loaded = (): Promise<SqlDatabase> => {
    loading ??= load();
    return loading;
  };
  return {
    name,
    engine,
    async start() {
      await (await loaded()).start?.();
    },
    async run(request, call) {
      return (await loaded()).run(request, call);
    },
    async close() {
      if (loading !== undefined) await (await loading).close();
    },
  };
}
