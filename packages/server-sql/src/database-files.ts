import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';

const databaseName = /^[A-Za-z0-9_-]{1,64}$/;

/** `scheme:` at the start of a spec; one letter is a Windows drive, not a scheme. */
const urlScheme = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/** Where one database lives: a SQLite file, or a server reached by URL. */
export type DatabaseSource =
  | { engine: 'sqlite'; path: string }
  | { engine: 'postgres'; url: string }
  | { engine: 'mysql'; url: string };

function nameFromPath(path: string): string {
  const stem = basename(path, extname(path))
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 64);
  return stem === '' ? 'main' : stem;
}

/** A server URL is named after its database (`postgres://host/sales` → `sales`), never after anything before it. */
function nameFromUrl(url: string): string {
  try {
    const database = decodeURIComponent(new URL(url).pathname.replace(/^\/+/, ''));
    return nameFromPath(database);
  } catch {
    return 'main';
  }
}

/**
 * `PATH`, `URL`, `NAME=PATH` or `NAME=URL`, as given to `--db`, into names and
 * locations. A bare path is named after its file (`data/sales.db` → `sales`),
 * a bare URL after its database.
 */
export function parseDatabaseSpecs(specs: readonly string[]): Record<string, string> {
  const databases: Record<string, string> = {};
  for (const spec of specs) {
    const equals = spec.indexOf('=');
    const named = equals > 0 && databaseName.test(spec.slice(0, equals));
    const location = named ? spec.slice(equals + 1) : spec;
    const name = named
      ? spec.slice(0, equals)
      : /^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(location) && !location.startsWith('sqlite:')
        ? nameFromUrl(location)
        : nameFromPath(sqlitePath(location));
    if (name in databases) {
      throw new LocalError('config_invalid', `two databases are named "${name}"; name them with --db NAME=LOCATION`);
    }
    databases[name] = location;
  }
  return databases;
}

/** `sqlite:///abs/file.db`, `sqlite:file.db` or a plain path, as a path. */
function sqlitePath(location: string): string {
  if (location.startsWith('sqlite://')) return decodeURIComponent(location.slice('sqlite://'.length));
  if (location.startsWith('sqlite:')) return decodeURIComponent(location.slice('sqlite:'.length));
  return location;
}

/**
 * Which engine holds a database, from its location. An unknown scheme is
 * refused by its scheme alone: the rest of a URL may hold a password.
 */
export function databaseSource(name: string, location: string): DatabaseSource {
  const scheme = urlScheme.exec(location)?.[1]?.toLowerCase();
  switch (scheme) {
    case undefined:
    case 'sqlite':
      return { engine: 'sqlite', path: resolve(sqlitePath(location)) };
    case 'postgres':
    case 'postgresql':
      return { engine: 'postgres', url: location };
    case 'mysql':
    case 'mariadb':
      return { engine: 'mysql', url: location };
    default:
      // `file:` and the like are paths to nobody; a scheme we do not know is a typo or an engine we lack.
      if (!location.slice(scheme.length + 1).startsWith('//')) {
        return { engine: 'sqlite', path: resolve(location) };
      }
      throw new LocalError(
        'config_invalid',
        `database "${name}": "${scheme}://" is not a database URL this server knows; use postgres://, postgresql://, mysql://, mariadb://, sqlite: or a file path`,
      );
  }
}

const sqliteHeader = 'SQLite format 3\u0000';

/** The absolute path of one SQLite file, checked to be readable and a database. */
export function checkSqliteFile(name: string, location: string): string {
  if (!databaseName.test(name)) {
    throw new LocalError('config_invalid', `database name "${name}" must be 1-64 letters, digits, _ or -`);
  }
  const path = resolve(sqlitePath(location));
  let header = '';
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    const descriptor = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(16);
      readSync(descriptor, buffer, 0, 16, 0);
      header = buffer.toString('latin1');
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    throw new LocalError('config_invalid', `database file ${path} cannot be read: ${(error as Error).message}`);
  }
  // An empty file is an empty database to SQLite.
  if (header !== sqliteHeader && statSync(path).size > 0)
    throw new LocalError('config_invalid', `${path} is not a SQLite database file`);
  return path;
}

/**
 * Every database's engine and location, checked: names are valid, SQLite
 * files exist and are databases, server URLs have a known scheme.
 */
export function checkDatabaseSources(databases: Readonly<Record<string, string>>): Record<string, DatabaseSource> {
  const names = Object.keys(databases);
  if (names.length === 0) {
    throw new LocalError('config_invalid', 'no database given: pass --db PATH, --db URL (or NAME=PATH, NAME=URL)');
  }
  const checked: Record<string, DatabaseSource> = {};
  for (const name of names) {
    if (!databaseName.test(name)) {
      throw new LocalError('config_invalid', `database name "${name}" must be 1-64 letters, digits, _ or -`);
    }
    const source = databaseSource(name, databases[name] as string);
    checked[name] =
      source.engine === 'sqlite' ? { engine: 'sqlite', path: checkSqliteFile(name, source.path) } : source;
  }
  return checked;
}
