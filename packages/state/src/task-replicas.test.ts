import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TaskRecord, TaskSignal } from '@toolshed/mcp-core';
import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from './open-state-store.ts';
import { replicaStoppedMessage } from './sql/task-rows.ts';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from './testing.ts';

const holderScript = new URL('./__fixtures__/task-holder-process.ts', import.meta.url).pathname;
/** Waits for what crosses processes: patient, so a slow machine only makes it slower. */
const patiently = { timeout: 20_000, interval: 50 };
const answer = { colour: { action: 'accept', content: { colour: 'blue' } } };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts a replica in a process of its own that runs one task, and keeps what it says, line by line. */
async function startTaskHolder(location: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [holderScript, location], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const said: unknown[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => said.push(JSON.parse(line)));
  await expect.poll(() => said.length > 0 || child.exitCode !== null, patiently).toBe(true);
  expect(child.exitCode).toBeNull();
  const { replica, taskId } = said[0] as { replica: string; taskId: string };
  return {
    replica,
    taskId,
    signals: () => said.slice(1).map((line) => (line as { signal: TaskSignal }).signal),
    async kill() {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const failedForItsReplica = {
  status: 'failed',
  statusMessage: replicaStoppedMessage,
  error: { code: -32603, message: replicaStoppedMessage },
} satisfies Partial<TaskRecord>;

describe('two processes on one SQLite file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-task-processes-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads the other process’s task, passes it answers and a cancel, and fails it once that process is killed', async () => {
    const location = join(directory, 'state.db');
    const holder = await startTaskHolder(location);
    const here = await openStateStore({ location });
    expect(await here.tasks.get(holder.taskId)).toMatchObject({
      principal: 'ana',
      status: 'working',
      statusMessage: 'running in another process',
    });
    await here.tasks.signal({ taskId: holder.taskId, kind: 'input', responses: answer });
    await expect.poll(holder.signals, patiently).toEqual([{ taskId: holder.taskId, kind: 'input', responses: answer }]);
    await here.tasks.signal({ taskId: holder.taskId, kind: 'cancel' });
    await expect.poll(holder.signals, patiently).toEqual([
      { taskId: holder.taskId, kind: 'input', responses: answer },
      { taskId: holder.taskId, kind: 'cancel' },
    ]);
    await holder.kill();
    await here.sweep();
    expect(await here.tasks.get(holder.taskId)).toMatchObject(failedForItsReplica);
    await here.close();
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

  it('answers for one replica’s task on another, which passes answers and a cancel to it and hears its changes', async () => {
    const one = await openStateStore({ location: server.url });
    const two = await openStateStore({ location: server.url });
    const heard: TaskSignal[] = [];
    const stopSignals = one.tasks.onSignal((signal) => heard.push(signal));
    const changed: string[] = [];
    const stopChanges = two.tasks.onChange((taskId) => changed.push(taskId));
    const now = Date.now();
    const task: TaskRecord = {
      taskId: 'task-on-one',
      principal: 'ana',
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 3_600_000,
    };
    await one.tasks.create(task);
    expect(await two.tasks.get(task.taskId)).toEqual(task);
    await two.tasks.signal({ taskId: task.taskId, kind: 'input', responses: answer });
    await expect.poll(() => heard, patiently).toEqual([{ taskId: task.taskId, kind: 'input', responses: answer }]);
    await two.tasks.signal({ taskId: task.taskId, kind: 'cancel' });
    await expect.poll(() => heard.length, patiently).toBe(2);
    expect(heard[1]).toEqual({ taskId: task.taskId, kind: 'cancel' });
    await one.tasks.update(task.taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' }, Date.now());
    await expect.poll(() => changed, patiently).toEqual([task.taskId]);
    expect((await two.tasks.get(task.taskId))?.status).toBe('cancelled');
    stopSignals();
    stopChanges();
    await one.close();
    await two.close();
  });

  it('fails the task of a replica killed with SIGKILL on the sweep of a survivor', async () => {
    const survivor = await openStateStore({ location: server.url, sweepEveryMs: 200, deadAfterMs: 500 });
    const holder = await startTaskHolder(server.url, { ...process.env, PGPASSWORD: server.env.PGPASSWORD });
    expect((await survivor.tasks.get(holder.taskId))?.status).toBe('working');
    await survivor.tasks.signal({ taskId: holder.taskId, kind: 'cancel' });
    await expect.poll(holder.signals, patiently).toEqual([{ taskId: holder.taskId, kind: 'cancel' }]);
    await holder.kill();
    await expect.poll(async () => (await survivor.tasks.get(holder.taskId))?.status, patiently).toBe('failed');
    expect(await survivor.tasks.get(holder.taskId)).toMatchObject(failedForItsReplica);
    await survivor.close();
  });
});
