import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';
import type { DatabaseSource } from '../database-files.ts';
import { mysqlConnectionSettings } from '../mysql/mysql-connection-options.ts';
import { postgresPoolConfig } from '../postgres/postgres-connection-config.ts';
import type { SqlDatabaseTarget, SqlEngineSettings } from '../sql-engine.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';
import { parseSshBastion, sshPassphraseVariable } from './ssh-bastion.ts';
import type { SshTunnelSettings } from './ssh-tunnel.ts';

type TunnelOptions = Pick<SqlServerOptions, 'sshBastions' | 'sshKeys' | 'sshPassphrases' | 'sshKnownHosts'>;

/** `~/x` as a path under the home directory, as a shell would have it. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : resolve(path);
}

function readable(what: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new LocalError('config_invalid', `${what} ${path} cannot be read: ${(error as Error).message}`);
  }
}

/** The database server's host and port as its URL gives them: where the bastion is to forward. */
function tunnelTarget(target: SqlDatabaseTarget, source: DatabaseSource, settings: SqlEngineSettings) {
  if (source.engine === 'postgres') {
    const config = postgresPoolConfig(target, settings);
    if (config.host !== undefined && !config.host.startsWith('/'))
      return { host: config.host, port: config.port ?? 5432 };
  } else {
    const { connection } = mysqlConnectionSettings(target, settings);
    if (connection.socketPath === undefined)
      return { host: connection.host ?? '127.0.0.1', port: connection.port ?? 3306 };
  }
  throw new LocalError(
    'config_invalid',
    `--db-ssh ${target.name}: the database URL names a unix socket; a tunnel needs a host and port the bastion can reach`,
  );
}

/**
 * The SSH tunnel of each database that has a bastion, checked at start: every
 * name is a PostgreSQL or MySQL database (SQLite is a file here, with nothing
 * to tunnel to), every bastion has a key that reads (with its passphrase),
 * and the known_hosts file reads. Nothing connects.
 */
export function sshTunnelSettings(
  options: TunnelOptions,
  sources: Readonly<Record<string, DatabaseSource>>,
  passwords: Readonly<Record<string, string>> | undefined,
  settings: SqlEngineSettings,
): Map<string, SshTunnelSettings> {
  const tunnels = new Map<string, SshTunnelSettings>();
  const bastions = options.sshBastions ?? {};
  for (const name of Object.keys(options.sshKeys ?? {})) {
    if (!(name in bastions)) {
      throw new LocalError(
        'config_invalid',
        `--db-ssh-key ${name}=…: no bastion is given for it (--db-ssh ${name}=USER@HOST)`,
      );
    }
  }
  if (Object.keys(bastions).length === 0) return tunnels;
  const knownHostsFile = expandHome(options.sshKnownHosts ?? '~/.ssh/known_hosts');
  for (const [name, spec] of Object.entries(bastions)) {
    const source = sources[name];
    if (source === undefined) {
      throw new LocalError(
        'config_invalid',
        `--db-ssh ${name}=…: there is no database named "${name}" (--db ${name}=URL)`,
      );
    }
    if (source.engine === 'sqlite') {
      throw new LocalError(
        'config_invalid',
        `--db-ssh ${name}: "${name}" is a SQLite file, read where the server runs; SSH tunnels are for PostgreSQL and MySQL/MariaDB servers`,
      );
    }
    const bastion = parseSshBastion(name, spec);
    if (tunnels.size === 0) readable('the known_hosts file (--db-ssh-known-hosts)', knownHostsFile);
    const keyPath = options.sshKeys?.[name];
    if (keyPath === undefined) {
      throw new LocalError(
        'config_invalid',
        `--db-ssh ${name}: give the key that logs in to the bastion with --db-ssh-key ${name}=FILE`,
      );
    }
    const keyFile = expandHome(keyPath);
    const privateKey = readable(`--db-ssh-key ${name}:`, keyFile);
    const passphrase = options.sshPassphrases?.[name];
    const { utils } = createRequire(import.meta.url)('ssh2') as typeof import('ssh2');
    const parsed = utils.parseKey(privateKey, passphrase);
    if (parsed instanceof Error) {
      const hint = /passphrase|encrypt|decrypt/i.test(parsed.message)
        ? `; its passphrase goes in ${sshPassphraseVariable(name)}`
        : '';
      throw new LocalError(
        'config_invalid',
        `--db-ssh-key ${name}: ${keyFile} is not a usable private key (${parsed.message})${hint}`,
      );
    }
    const target = tunnelTarget({ name, url: source.url, password: passwords?.[name] }, source, settings);
    tunnels.set(name, {
      bastion,
      keyFile,
      privateKey,
      passphrase,
      knownHostsFile,
      target,
      readyTimeoutMs: Math.max(settings.limits.timeoutMs, 1000),
    });
  }
  return tunnels;
}
