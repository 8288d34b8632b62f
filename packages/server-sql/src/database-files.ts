import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';

const databaseName = /^[A-Za-z0-9_-]{1,64}$/;

function nameFromPath(path: string): string {
  const stem = basename(path, extname(path))
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 64);
  return stem === '' ? 'main' : stem;
}

/**
 * `PATH` or `NAME=PATH`, as given to `--db`, into names and absolute paths.
 * A bare path is named after its file (`data/sales.db` → `sales`).
 */
export function parseDatabaseSpecs(specs: readonly string[]): Record<string, string> {
  const databases: Record<string, string> = {};
  for (const spec of specs) {
    const equals = spec.indexOf('=');
    const named = equals > 0 && databaseName.test(spec.slice(0, equals));
    const name = named ? spec.slice(0, equals) : nameFromPath(spec);
    const path = named ? spec.slice(equals + 1) : spec;
    if (name in databases) {
      throw new LocalError('config_invalid', `two databases are named "${name}"; name them with --db NAME=PATH`);
    }
    databases[name] = path;
  }
  return databases;
}

const sqliteHeader = 'SQLite format 3\u0000';

/**
 * Checks at start-up that each file exists and is a SQLite database, so a
 * wrong path fails fast with one line instead of on the first call.
 */
export function checkDatabaseFiles(databases: Readonly<Record<string, string>>): Record<string, string> {
  const checked: Record<string, string> = {};
  const names = Object.keys(databases);
  if (names.length === 0) throw new LocalError('config_invalid', 'no database given: pass --db PATH (or NAME=PATH)');
  for (const name of names) {
    if (!databaseName.test(name)) {
      throw new LocalError('config_invalid', `database name "${name}" must be 1-64 letters, digits, _ or -`);
    }
    const path = resolve(databases[name] as string);
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
    checked[name] = path;
  }
  return checked;
}
