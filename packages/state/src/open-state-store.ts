import { openPostgresStateStore, printableStoreUrl } from './postgres/postgres-state-store.ts';
import type { SweepTiming } from './sql/sql-state-store.ts';
import type { TaskLimits } from './sql/task-rows.ts';
import { openSqliteStateStore } from './sqlite/sqlite-state-store.ts';
import type { StateStore } from './state-store.ts';
import { StateStoreError } from './state-store-error.ts';

const { join } = process.getBuiltinModule('node:path');
const { homedir } = process.getBuiltinModule('node:os');

export interface OpenStateStoreOptions extends SweepTiming, TaskLimits {
  /**
   * Where the state lives: a `postgres://` URL for replicas sharing it, a
   * `sqlite:` URL or a file path for one machine; undefined for the embedded
   * default, `$XDG_STATE_HOME/toolshed/state.db`.
   */
  location?: string | undefined;
  /** The environment, for the default place. Default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
}

/** The embedded store's default file: `$XDG_STATE_HOME/toolshed/state.db`, else `~/.local/state/toolshed/state.db`. */
export function defaultStatePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'toolshed', 'state.db');
}

/**
 * Opens the state store a location names, applying its migrations. A store
 * that cannot be opened rejects with a `StateStoreError` whose message is
 * one line, without the password.
 *
 * @example
 * const store = await openStateStore({ location: process.env.TOOLSHED_STATE_URL });
 * const allowed = await store.rates.take('weather', [{ limit: 30, windowMs: 60_000 }], Date.now());
 */
export function openStateStore(options: OpenStateStoreOptions = {}): Promise<StateStore> {
  const location = options.location;
  if (location !== undefined && /^postgres(ql)?:\/\//.test(location)) {
    return openPostgresStateStore({ ...options, url: location });
  }
  if (location !== undefined && /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location) && !location.startsWith('sqlite:')) {
    return Promise.reject(
      new StateStoreError(
        `the state store ${printableStoreUrl(location)} is neither a postgres:// URL nor a SQLite file (a path, or sqlite:/path)`,
      ),
    );
  }
  const path =
    location === undefined || location === ''
      ? defaultStatePath(options.env)
      : location.startsWith('sqlite:')
        ? location.slice('sqlite:'.length).replace(/^\/\//, '')
        : location;
  return openSqliteStateStore({ ...options, path });
}
