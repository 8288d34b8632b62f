import { join } from 'node:path';
import { freeLoopbackPort, type SpawnedHttpServer, spawnHttpServer } from '@toolshed/mcp-core/testing';
import type { PostgresStateServer } from '@toolshed/state/testing';

const bin = new URL('../cli.ts', import.meta.url).pathname;

/** One `toolshed serve` replica: its MCP endpoint, its console, and which one it is. */
export type HostReplica = SpawnedHttpServer & { console: string; index: number };

/**
 * Starts one replica of the host on 127.0.0.1 with its console, sharing the
 * PostgreSQL store and the requestState key with its siblings; 2025 sessions
 * get the replica's prefix, as nginx routes them.
 */
export async function startHostReplica(options: {
  index: number;
  config: string;
  postgres: PostgresStateServer;
  /** Each replica's own state home is made under it. */
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
