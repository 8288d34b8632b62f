import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type RealService,
  type ServiceProcess,
  startServiceProcess,
  unprivilegedIds,
} from '@toolshed/mcp-core/testing';
import pg from 'pg';

function postgresBinDirectory(): string {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => /^\d+$/.test(version))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  return `/usr/lib/postgresql/${versions[0] ?? '15'}/bin`;
}

/** Debian's PostgreSQL, as the tests that share a store start it. */
export const postgresStateService: RealService = {
  name: 'PostgreSQL',
  binary: join(postgresBinDirectory(), 'postgres'),
  debianPackage: 'postgresql',
};

/** A PostgreSQL of a test's own, with a `toolshed` database its `toolshed` role owns. */
export interface PostgresStateServer {
  port: number;
  /** `postgres://toolshed@127.0.0.1:port/toolshed`: no password, which comes from `env`. */
  url: string;
  /** The environment a store's process needs: PGPASSWORD. */
  env: { PGPASSWORD: string };
  /** A new connection as the store's role, for checking from outside. */
  connect(): Promise<pg.Client>;
  /** Stops the server and keeps its data (an outage). */
  pause(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const password = 'state-Secret:p@ss/w0rd';

/**
 * Starts PostgreSQL from Debian's packages for a test: initdb into a
 * temporary directory, as `nobody` when the tests run as root, on 127.0.0.1
 * and a free port, fsync off, with a `toolshed` role and database. It can be
 * paused and resumed on the same port, for tests of a store that goes away.
 */
export async function startPostgresStateServer(): Promise<PostgresStateServer> {
  const bin = postgresBinDirectory();
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-postgres-'));
  const dataDirectory = join(directory, 'data');
  const socketDirectory = join(directory, 'socket');
  mkdirSync(socketDirectory);
  const passwordFile = join(directory, 'password');
  writeFileSync(passwordFile, `${password}\n`);
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
      'postgres',
      `--pwfile=${passwordFile}`,
      '--auth-host=scram-sha-256',
      '--auth-local=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { encoding: 'utf8', ...ids },
  );
  if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr}${initdb.stdout}`);
  const start = (port?: number) =>
    startServiceProcess({
      command: join(bin, 'postgres'),
      args: (chosen) => [
        '-D',
        dataDirectory,
        '-p',
        String(chosen),
        '-k',
        socketDirectory,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=300',
      ],
      cwd: directory,
      listenWithinMs: 60_000,
      ...(port === undefined ? {} : { port }),
    });
  let service: ServiceProcess = await start();
  const port = service.port;
  const connect = async (user: string, database: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password, database });
    client.on('error', () => {});
    // The port answers before the server accepts sessions ("the database system is starting up").
    for (let attempt = 0; ; attempt++) {
      try {
        await client.connect();
        return client;
      } catch (error) {
        if ((error as { code?: string }).code !== '57P03' || attempt > 600) throw error;
        await delay(50);
      }
    }
  };
  const waitReady = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        await (await connect('postgres', 'postgres')).end();
        return;
      } catch (error) {
        if (attempt > 600) throw error;
        await delay(50);
      }
    }
  };
  try {
    await waitReady();
    const admin = await connect('postgres', 'postgres');
    await admin.query(`CREATE ROLE toolshed LOGIN PASSWORD '${password.replaceAll("'", "''")}'`);
    await admin.query('CREATE DATABASE toolshed OWNER toolshed');
    await admin.end();
  } catch (error) {
    await service.stop();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `postgres://toolshed@127.0.0.1:${port}/toolshed`,
    env: { PGPASSWORD: password },
    connect: () => connect('toolshed', 'toolshed'),
    async pause() {
      await service.stop();
    },
    async resume() {
      service = await start(port);
      await waitReady();
    },
    async stop() {
      await service.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
