import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RealService, type ServiceProcess, startServiceProcess, unprivilegedIds } from './real-service.ts';

function postgresBinDirectory(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => /^\d+$/.test(version))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  return `/usr/lib/postgresql/${versions[0] ?? '15'}/bin`;
}

/** Debian's PostgreSQL (its newest installed major version), as tests start it. */
export const postgresService: RealService = {
  name: 'PostgreSQL',
  binary: join(postgresBinDirectory(), 'postgres'),
  debianPackage: 'postgresql',
};

/** A PostgreSQL data directory of a test's own, made by initdb, and how to start a server on it. */
export interface PostgresCluster {
  /** The temporary directory that holds the data, the socket and the password file. */
  readonly directory: string;
  /** Where the server's unix socket is. */
  readonly socketDirectory: string;
  /**
   * Starts `postgres` on 127.0.0.1 and a free port (or `port`, to start it
   * again where its clients expect it), with fsync off and `settings` as
   * more `-c name=value` pairs; resolves once the port answers.
   */
  start(options?: { port?: number; settings?: Record<string, string> }): Promise<ServiceProcess>;
  /** Removes the directory (the server stopped first). */
  remove(): void;
}

/**
 * initdb into a temporary directory, run as `nobody` when the tests run as
 * root, with one superuser and its password (scram-sha-256 over TCP and the
 * socket), UTF-8 and the C locale.
 *
 * @example
 * const cluster = initPostgresCluster({ superuser: 'postgres', password: 'secret' });
 * const server = await cluster.start();
 */
export function initPostgresCluster(options: { superuser: string; password: string }): PostgresCluster {
  const bin = postgresBinDirectory();
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-postgres-'));
  const dataDirectory = join(directory, 'data');
  const socketDirectory = join(directory, 'socket');
  mkdirSync(socketDirectory);
  const passwordFile = join(directory, 'password');
  writeFileSync(passwordFile, `${options.password}\n`);
  const ids = unprivilegedIds();
  if (ids !== undefined) {
    for (const path of [directory, socketDirectory, passwordFile]) chownSync(path, ids.uid, ids.gid);
  }
  const initdb = spawnSync(
    join(bin, 'initdb'),
    [
      '-D',
      dataDirectory,
      '-U',
      options.superuser,
      `--pwfile=${passwordFile}`,
      '--auth-host=scram-sha-256',
      '--auth-local=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { encoding: 'utf8', ...ids },
  );
  if (initdb.status !== 0) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error(`initdb failed: ${initdb.stderr}${initdb.stdout}`);
  }
  return {
    directory,
    socketDirectory,
    start: (start = {}) =>
      startServiceProcess({
        command: join(bin, 'postgres'),
        args: (port) => [
          '-D',
          dataDirectory,
          '-p',
          String(port),
          '-k',
          socketDirectory,
          ...Object.entries({
            listen_addresses: '127.0.0.1',
            fsync: 'off',
            synchronous_commit: 'off',
            full_page_writes: 'off',
            ...start.settings,
          }).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
        ],
        cwd: directory,
        listenWithinMs: 60_000,
        ...(start.port === undefined ? {} : { port: start.port }),
      }),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
