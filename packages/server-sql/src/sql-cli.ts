import { defineServerCli, LocalError, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { parseDatabaseSpecs } from './database-files.ts';
import { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
import { sshPassphraseVariable } from './ssh/ssh-bastion.ts';

/** The `toolshed-sql` bin, derived from the options schema. */
export const sqlCli: ServerCli<typeof sqlServerOptions> = defineServerCli({
  name: 'toolshed-sql',
  version: packageVersion(import.meta.url),
  summary:
    'Read-only SQL over SQLite files, PostgreSQL and MySQL/MariaDB, as an MCP server over stdio or Streamable HTTP',
  options: sqlServerOptions,
  envPrefix: 'TOOLSHED_SQL',
  readers: {
    databases: { type: 'list', read: (specs) => parseDatabaseSpecs([specs].flat()) },
    tools: { type: 'string', read: (path) => path },
    sshBastions: { type: 'list', read: (specs) => namedValues('--db-ssh', 'USER@HOST[:PORT]', [specs].flat()) },
    sshKeys: { type: 'list', read: (specs) => namedValues('--db-ssh-key', 'FILE', [specs].flat()) },
  },
  examples: [
    'toolshed-sql --db ./chinook.db',
    'toolshed-sql --db sales=./sales.db --db hr=./hr.db --max-rows 200',
    'TOOLSHED_SQL_PASSWORD_APP=… toolshed-sql --db app=postgres://reader@db.example.com/app',
    'toolshed-sql --db ./app.db --timeout-ms 3000 --http 127.0.0.1:3000',
    'toolshed-sql --db shop=./shop.db --tools ./tools.yaml --no-ad-hoc',
    'toolshed-sql --db app=postgres://reader@10.0.0.5/app --db-ssh app=tunnel@bastion.example.com --db-ssh-key app=~/.ssh/id_ed25519',
  ],
});

/**
 * `NAME=VALUE` pairs into a map. A value without its name is refused without
 * being repeated, as it may hold what should not be shown.
 */
function namedValues(flag: string, placeholder: string, specs: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const spec of specs) {
    const equals = spec.indexOf('=');
    const name = spec.slice(0, Math.max(equals, 0));
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      throw new LocalError('config_invalid', `${flag} takes NAME=${placeholder}, NAME being the database's name`);
    }
    values[name] = spec.slice(equals + 1);
  }
  return values;
}

/** `TOOLSHED_SQL_PASSWORD_<NAME>` of each database: the name in upper case, `-` as `_`. */
export function passwordVariable(name: string): string {
  return `TOOLSHED_SQL_PASSWORD_${name.toUpperCase().replaceAll('-', '_')}`;
}

/** The passphrases the environment holds for the SSH keys of these options. */
export function sshPassphrasesFromEnvironment(
  options: Pick<SqlServerOptions, 'sshKeys' | 'sshPassphrases'>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const passphrases: Record<string, string> = { ...options.sshPassphrases };
  for (const name of Object.keys(options.sshKeys ?? {})) {
    const passphrase = env[sshPassphraseVariable(name)];
    if (passphrase !== undefined && passphrase !== '') passphrases[name] = passphrase;
  }
  return passphrases;
}

/** The passwords the environment holds for the databases of these options. */
export function passwordsFromEnvironment(
  options: Pick<SqlServerOptions, 'databases' | 'passwords'>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const names =
    typeof options.databases === 'string'
      ? Object.keys(parseDatabaseSpecs([options.databases]))
      : Object.keys(options.databases);
  const passwords: Record<string, string> = { ...options.passwords };
  for (const name of names) {
    const password = env[passwordVariable(name)];
    if (password !== undefined && password !== '') passwords[name] = password;
  }
  return passwords;
}
