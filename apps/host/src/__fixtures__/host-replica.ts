import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, type SpawnedHttpServer, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { openStateStore, type StateStore } from '@toolshed/state';
import { type PostgresStateServer, startPostgresStateServer } from '@toolshed/state/testing';
import { type NginxLoadBalancer, startNginxLoadBalancer } from './nginx-server.ts';

const bin = new URL('../cli.ts', import.meta.url).pathname;
const { createHash, randomBytes } = process.getBuiltinModule('node:crypto');

/** One `toolshed serve` replica: its MCP endpoint, its console, and which one it is. */
export type HostReplica = SpawnedHttpServer & { console: string; index: number };

/** Replicas of the host behind nginx, sharing one PostgreSQL store. */
export interface HostReplicaSet {
  replicas: HostReplica[];
  nginx: NginxLoadBalancer;
  postgres: PostgresStateServer;
  /** The shared store, opened by the test itself. */
  store: StateStore;
  /** A console token of the user `operator`, good on every replica's console. */
  operatorToken: string;
  stop(): Promise<void>;
}

/**
 * Starts one replica of the host on 127.0.0.1 with its console, sharing the
 * PostgreSQL store and the requestState key with its siblings; 2025 sessions
 * get the replica's prefix, as nginx routes them.
 */
async function startHostReplica(options: {
  index: number;
  config: string;
  postgres: PostgresStateServer;
  directory: string;
  requestStateKey: string;
  sessionPrefix: string;
}): Promise<HostReplica> {
  const { index, postgres } = options;
  const consolePort = await freeLoopbackPort();
  const server = await spawnHttpServer(
    [
      bin,
      'serve',
      '--config',
      options.config,
      '--http',
      '127.0.0.1:0',
      '--http-session-prefix',
      options.sessionPrefix,
      '--console',
      `127.0.0.1:${consolePort}`,
      '--state',
      postgres.url,
    ],
    {
      env: {
        ...process.env,
        ...postgres.env,
        XDG_STATE_HOME: join(options.directory, `replica-${index + 1}`),
        TOOLSHED_REQUEST_STATE_KEY: options.requestStateKey,
      },
    },
  );
  return Object.assign(server, { console: `http://127.0.0.1:${consolePort}/`, index });
}

/**
 * A real PostgreSQL, one replica of the host per session prefix running the
 * config (written to `directory`), nginx in front of them, and the store
 * opened with an operator's console token in it.
 */
export async function startHostReplicaSet(options: {
  directory: string;
  config: Record<string, unknown>;
  sessionPrefixes: readonly string[];
}): Promise<HostReplicaSet> {
  const { directory, sessionPrefixes } = options;
  const postgres = await startPostgresStateServer();
  const config = join(directory, 'toolshed.json');
  writeFileSync(config, JSON.stringify(options.config));
  const requestStateKey = randomBytes(32).toString('base64url');
  const startReplica = (index: number) =>
    startHostReplica({
      index,
      config,
      postgres,
      directory,
      requestStateKey,
      sessionPrefix: sessionPrefixes[index] as string,
    });
  // The first replica applies the migrations; the others find them applied.
  const replicas = [await startReplica(0)];
  replicas.push(...(await Promise.all(sessionPrefixes.slice(1).map((_, index) => startReplica(index + 1)))));
  const nginx = await startNginxLoadBalancer(
    mkdtempSync(join(tmpdir(), 'toolshed-nginx-')),
    replicas.map((replica, index) => ({ sessionPrefix: sessionPrefixes[index] ?? '', address: replica.url.host })),
  );
  process.env.PGPASSWORD = postgres.env.PGPASSWORD;
  const store = await openStateStore({ location: postgres.url });
  const operatorToken = `tsc_${randomBytes(32).toString('base64url')}`;
  await store.logins.addToken({
    id: 'abcdef012345',
    user: 'operator',
    label: 'test',
    sha256: createHash('sha256').update(operatorToken).digest('hex'),
    createdAt: new Date().toISOString(),
  });
  return {
    replicas,
    nginx,
    postgres,
    store,
    operatorToken,
    async stop() {
      await nginx.stop();
      await Promise.all(replicas.map((replica) => replica.stop()));
      await store.close();
      await postgres.stop();
    },
  };
}
