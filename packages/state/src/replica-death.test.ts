import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from './open-state-store.ts';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from './testing.ts';

const replicaScript = new URL('./__fixtures__/store-replica-process.ts', import.meta.url).pathname;

/** Starts a replica in its own process, waits until its call has started, and kills it with SIGKILL. */
async function killReplicaMidCall(location: string, callId: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [replicaScript, location, callId], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  child.kill('SIGKILL');
  await once(child, 'exit');
  return line.toString().trim();
}

describe('a replica killed mid-call (SQLite, one machine)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-kill-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('leaves its call interrupted and its send uncertain when the host starts again', async () => {
    const location = join(directory, 'state.db');
    await killReplicaMidCall(location, 'sqlite-killed');
    const restarted = await openStateStore({ location });
    const page = await restarted.audit.query({ server: 'killed', limit: 5 });
    expect(page.records.map((record) => record.outcome)).toEqual(['interrupted']);
    expect((await restarted.idempotency.recall('email', 'sqlite-killed-send', Date.now()))?.state).toBe('uncertain');
    await restarted.close();
  });
});

describe.runIf(serviceGate(postgresStateService, it))('replicas sharing PostgreSQL', () => {
  let server: PostgresStateServer;
  beforeAll(async () => {
    server = await startPostgresStateServer();
    process.env.PGPASSWORD = server.env.PGPASSWORD;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ends a killed replica’s calls on the sweep of a survivor, within seconds', async () => {
    const survivor = await openStateStore({ location: server.url, sweepEveryMs: 200, deadAfterMs: 500 });
    const killed = await killReplicaMidCall(server.url, 'pg-killed');
    await expect
      .poll(async () => (await survivor.audit.query({ server: 'killed', limit: 5 })).records[0]?.outcome, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('interrupted');
    expect((await survivor.audit.query({ server: 'killed', limit: 5 })).records[0]?.replica).toBe(killed);
    expect((await survivor.idempotency.recall('email', 'pg-killed-send', Date.now()))?.state).toBe('uncertain');
    await survivor.close();
  });

  it('answers unhealthy while PostgreSQL is down and recovers by itself, without ending a live replica', async () => {
    const one = await openStateStore({ location: server.url, sweepEveryMs: 200, deadAfterMs: 2000 });
    const two = await openStateStore({ location: server.url, sweepEveryMs: 200, deadAfterMs: 2000 });
    await two.audit.begin({
      id: 'outage-call',
      time: new Date().toISOString(),
      caller: 'c',
      server: 'outage',
      tool: 't',
      upstream_tool: 't',
      arguments_sha256: 'x',
      approval: 'not_required',
    });
    await server.pause();
    const down = await one.health();
    expect(down.ok).toBe(false);
    expect(down.ok === false && down.reason).toMatch(
      /^the state store at postgres:\/\/toolshed@127\.0\.0\.1:\d+\/toolshed is not reachable/,
    );
    expect(JSON.stringify(down)).not.toContain(server.env.PGPASSWORD);
    await expect(one.rates.take('outage', [{ limit: 1, windowMs: 1000 }], Date.now())).rejects.toThrow();
    await server.resume();
    await expect.poll(async () => (await one.health()).ok, { timeout: 20_000, interval: 200 }).toBe(true);
    await expect.poll(async () => (await two.health()).ok, { timeout: 20_000, interval: 200 }).toBe(true);
    // Both came back well within the grace period: the call still running on `two` is not taken for dead.
    await one.sweep();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await one.sweep();
    expect((await one.audit.query({ server: 'outage', limit: 1 })).records[0]?.outcome).toBe('started');
    await two.audit.complete('outage-call', { approval: 'not_required', outcome: 'ok', duration_ms: 5 });
    expect((await one.audit.query({ server: 'outage', limit: 1 })).records[0]?.outcome).toBe('ok');
    await one.close();
    await two.close();
  });

  it('refuses a wrong store URL with one line and no password', async () => {
    const wrong = `postgres://toolshed:hunter2-secret@127.0.0.1:${server.port}/no_such_database`;
    const error = await openStateStore({ location: wrong }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^the state store at postgres:\/\/toolshed@127\.0\.0\.1:\d+\/no_such_database cannot be used: /,
    );
    expect((error as Error).message).not.toContain('hunter2');
    expect((error as Error).message).not.toContain('\n');
  });
});
