import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';

/**
 * A bastion that accepts the connection and never says a word (a host that
 * black-holes SSH behind a load balancer, say): the time limit ends the
 * handshake, and a cancelled call stops waiting for it.
 */

const { utils } = createRequire(import.meta.url)('ssh2') as typeof import('ssh2');
let directory: string;
let bastion: Server;
let port: number;
const accepted: Socket[] = [];
let onAccept: (() => void) | undefined;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-silent-bastion-'));
  const keys = utils.generateKeyPairSync('ed25519');
  writeFileSync(join(directory, 'key'), keys.private);
  bastion = createServer((socket) => {
    accepted.push(socket);
    onAccept?.();
  });
  await new Promise<void>((resolve) => bastion.listen(0, '127.0.0.1', resolve));
  port = (bastion.address() as { port: number }).port;
  writeFileSync(join(directory, 'known_hosts'), `[127.0.0.1]:${port} ${keys.public}\n`);
});

afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  await new Promise((resolve) => bastion.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

const options = (timeoutMs: number): SqlServerOptions => ({
  databases: { app: 'postgres://reader@10.255.255.1/app' },
  sshBastions: { app: `tunnel@127.0.0.1:${port}` },
  sshKeys: { app: join(directory, 'key') },
  sshKnownHosts: join(directory, 'known_hosts'),
  limits: { timeoutMs },
});

it('gives up on a bastion that never answers at the time limit, with an isError naming it', async () => {
  const server = createSqlServer(options(1000));
  const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  const result = await client.callTool('query', { sql: 'SELECT 1' });
  expect(result.isError).toBe(true);
  expect(result.content[0]?.text).toContain(
    `the bastion tunnel@127.0.0.1:${port} did not complete the SSH handshake within 1000 ms`,
  );
  await client.close();
  await server.close();
});

it('stops waiting for a silent bastion when the call is cancelled, and keeps serving', async () => {
  // A limit no test waits out: only the cancellation can end this call.
  const server = createSqlServer(options(600_000));
  const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  const cancel = new AbortController();
  onAccept = () => cancel.abort();
  await expect(client.callTool('query', { sql: 'SELECT 1' }, { signal: cancel.signal })).rejects.toThrow();
  onAccept = undefined;
  expect((await client.listTools()).map((tool) => tool.name)).toContain('query');
  await client.close();
  await server.close();
});
