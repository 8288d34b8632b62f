import { setTimeout as delay } from 'node:timers/promises';
import { childExited, initPostgresCluster, postgresService, type ServiceProcess } from '@toolshed/mcp-core/testing';
import pg from 'pg';

/** Debian's PostgreSQL, as the tests that share a store start it. */
export const postgresStateService: typeof postgresService = postgresService;

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
  const cluster = initPostgresCluster({ superuser: 'postgres', password });
  const start = (port?: number) =>
    cluster.start({ settings: { max_connections: '300' }, ...(port === undefined ? {} : { port }) });
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
    cluster.remove();
    throw error;
  }
  return {
    port,
    url: `postgres://toolshed@127.0.0.1:${port}/toolshed`,
    env: { PGPASSWORD: password },
    connect: () => connect('toolshed', 'toolshed'),
    async pause() {
      // A fast shutdown (SIGINT), as `pg_ctl stop -m fast` does: sessions end and the server stops cleanly. A
      // smart one would wait for the stores' idle connections; a SIGKILL would leave its backends running on.
      const exited = childExited(service.child);
      service.child.kill('SIGINT');
      await exited;
    },
    async resume() {
      service = await start(port);
      await waitReady();
    },
    async stop() {
      await service.stop();
      cluster.remove();
    },
  };
}
