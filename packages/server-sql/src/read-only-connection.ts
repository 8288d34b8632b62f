import Database from 'better-sqlite3';

/**
 * Opens a database file for reading only, in layers, so that no single one
 * has to hold: the file must already exist (nothing is ever created), the
 * connection is opened read-only at the OS level, `query_only` refuses every
 * change even where SQLite would allow one, untrusted schema is off (views and
 * triggers in a hostile file cannot call functions with side effects), and
 * temporary data stays in memory (no temp files on disk). better-sqlite3 keeps
 * SQLite's defensive mode on and never enables the SQL `load_extension()`.
 */
export function openReadOnlyConnection(path: string, busyTimeoutMs: number): Database.Database {
  const connection = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    for (const setting of ['query_only = ON', 'trusted_schema = OFF', 'temp_store = MEMORY']) {
      connection.pragma(setting);
    }
    // Reading the schema now turns a file that is not a database into an error here, not on the first call.
    connection.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}

/** The settings `openReadOnlyConnection` makes, as `PRAGMA name` → value; the attack suite checks them. */
export const readOnlySettings: Readonly<Record<string, number>> = { query_only: 1, trusted_schema: 0, temp_store: 2 };
