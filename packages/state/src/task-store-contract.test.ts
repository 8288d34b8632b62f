import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryTaskStore, type TaskRecord, type TaskSignal, type TaskStore } from '@toolshed/mcp-core';
import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenStateStoreOptions, openStateStore } from './open-state-store.ts';
import { replicaStoppedMessage, timeToLivePassedMessage } from './sql/task-rows.ts';
import type { StateStore } from './state-store.ts';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from './testing.ts';

/** Waits for what a replica hears through the store: patient, so a slow machine only makes it slower. */
const patiently = { timeout: 15_000, interval: 20 };

function newTask(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: `task-${randomUUID()}`,
    principal: 'ana',
    status: 'working',
    statusMessage: 'started',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 3_600_000,
    ...overrides,
  };
}

const question = {
  method: 'elicitation/create',
  params: { message: 'Which colour?', requestedSchema: { type: 'object', properties: {} } },
} as const;
const answer = { action: 'accept', content: { colour: 'blue' } };

/** The promises of the `TaskStore` contract, kept by every store: `one` runs the tasks, `two` is another replica. */
function taskContract(
  engine: string,
  setUp: () => Promise<{ one: TaskStore; two: TaskStore; tearDown(): Promise<void> }>,
) {
  describe(`${engine}: the task store contract`, () => {
    let one: TaskStore;
    let two: TaskStore;
    let tearDown: () => Promise<void>;
    beforeAll(async () => {
      ({ one, two, tearDown } = await setUp());
    });
    afterAll(async () => {
      await tearDown?.();
    });

    it('finds a task on any replica once create has resolved', async () => {
      const task = newTask();
      await one.create(task);
      expect(await two.get(task.taskId)).toEqual(task);
    });

    it('answers undefined for a task it never had', async () => {
      expect(await two.get(`task-${randomUUID()}`)).toBeUndefined();
    });

    it('takes the running replica’s writes until the task is finished, and ignores those after', async () => {
      const task = newTask();
      const changed: string[] = [];
      const stop = two.onChange((taskId) => {
        if (taskId === task.taskId) changed.push(taskId);
      });
      await one.create(task);
      await one.update(
        task.taskId,
        { status: 'input_required', statusMessage: 'waiting for input', inputRequests: { colour: question } },
        task.createdAt + 5,
      );
      expect(await two.get(task.taskId)).toEqual({
        ...task,
        status: 'input_required',
        statusMessage: 'waiting for input',
        inputRequests: { colour: question },
        lastUpdatedAt: task.createdAt + 5,
      });
      const result = { content: [{ type: 'text', text: 'blue it is' }] };
      await one.update(task.taskId, { status: 'completed', result }, task.createdAt + 10);
      await one.update(
        task.taskId,
        { status: 'failed', statusMessage: 'too late', error: { code: -32603, message: 'too late' } },
        task.createdAt + 20,
      );
      expect(await two.get(task.taskId)).toEqual({
        taskId: task.taskId,
        principal: 'ana',
        status: 'completed',
        result,
        createdAt: task.createdAt,
        lastUpdatedAt: task.createdAt + 10,
        ttlMs: task.ttlMs,
      });
      await expect.poll(() => changed.length, patiently).toBe(2);
      stop();
    });

    it('passes a cancel and answers sent through another replica to the running replica’s listener, each once', async () => {
      const task = newTask();
      const later = newTask();
      const heard: TaskSignal[] = [];
      const stop = one.onSignal((signal) => heard.push(signal));
      await one.create(task);
      await one.create(later);
      await two.signal({ taskId: task.taskId, kind: 'input', responses: { colour: answer } });
      await two.signal({ taskId: task.taskId, kind: 'cancel' });
      await expect.poll(() => heard.filter((signal) => signal.taskId === task.taskId).length, patiently).toBe(2);
      // Signals are taken in the order they wait in: had the first ones been passed on twice, it would show by the time
      // a later one arrives.
      await two.signal({ taskId: later.taskId, kind: 'cancel' });
      await expect.poll(() => heard.some((signal) => signal.taskId === later.taskId), patiently).toBe(true);
      expect(heard.filter((signal) => signal.taskId === task.taskId)).toEqual([
        { taskId: task.taskId, kind: 'input', responses: { colour: answer } },
        { taskId: task.taskId, kind: 'cancel' },
      ]);
      stop();
    });
  });
}

/** What the shared stores promise beyond the contract: bounds, expiry, and replicas that stop. */
function sharedTaskStore(
  engine: string,
  setUp: () => Promise<{ open: (options?: OpenStateStoreOptions) => Promise<StateStore>; tearDown(): Promise<void> }>,
) {
  describe(`${engine}: tasks shared by replicas`, () => {
    let open: (options?: OpenStateStoreOptions) => Promise<StateStore>;
    let tearDown: () => Promise<void>;
    const stores: StateStore[] = [];
    const replica = async (options?: OpenStateStoreOptions) => {
      const store = await open(options);
      stores.push(store);
      return store;
    };
    /** Sweeps on whichever replica leads now: on PostgreSQL only one does. */
    const sweep = () => Promise.all(stores.map((store) => store.sweep()));
    beforeAll(async () => {
      ({ open, tearDown } = await setUp());
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      await tearDown?.();
    });

    it('keeps answers sent while the running replica does not listen, merged, until it does', async () => {
      const one = await replica();
      const two = await replica();
      const task = newTask();
      await one.tasks.create(task);
      await two.tasks.signal({ taskId: task.taskId, kind: 'input', responses: { colour: answer } });
      await two.tasks.signal({ taskId: task.taskId, kind: 'input', responses: { size: { action: 'decline' } } });
      // A second answer to a question already answered does not replace the first.
      await two.tasks.signal({ taskId: task.taskId, kind: 'input', responses: { colour: { action: 'decline' } } });
      const heard: TaskSignal[] = [];
      const stop = one.tasks.onSignal((signal) => heard.push(signal));
      await expect.poll(() => heard.length, patiently).toBe(1);
      expect(heard).toEqual([
        { taskId: task.taskId, kind: 'input', responses: { colour: answer, size: { action: 'decline' } } },
      ]);
      stop();
    });

    it('hands over every answer sent at once through several replicas, each once', async () => {
      const one = await replica();
      const two = await replica();
      const task = newTask({ status: 'input_required' });
      await one.tasks.create(task);
      const heard: TaskSignal[] = [];
      const stop = one.tasks.onSignal((signal) => heard.push(signal));
      const keys = Array.from({ length: 40 }, (_, index) => `question-${index}`);
      await Promise.all(
        keys.map((key, index) =>
          (index % 2 === 0 ? one : two).tasks.signal({
            taskId: task.taskId,
            kind: 'input',
            responses: { [key]: { action: 'accept', content: { index } } },
          }),
        ),
      );
      const answered = () => heard.flatMap((signal) => (signal.kind === 'input' ? Object.keys(signal.responses) : []));
      await expect.poll(() => new Set(answered()).size, patiently).toBe(keys.length);
      expect(answered().sort()).toEqual([...keys].sort());
      stop();
    });

    it('drops signals for a finished task or one it never had', async () => {
      const one = await replica();
      const two = await replica();
      const task = newTask();
      const later = newTask();
      const heard: TaskSignal[] = [];
      const stop = one.tasks.onSignal((signal) => heard.push(signal));
      await one.tasks.create(task);
      await one.tasks.create(later);
      await one.tasks.update(
        task.taskId,
        { status: 'cancelled', statusMessage: 'Cancelled by the client' },
        Date.now(),
      );
      await two.tasks.signal({ taskId: task.taskId, kind: 'cancel' });
      await two.tasks.signal({ taskId: task.taskId, kind: 'input', responses: { colour: answer } });
      await two.tasks.signal({ taskId: `task-${randomUUID()}`, kind: 'cancel' });
      await two.tasks.signal({ taskId: later.taskId, kind: 'cancel' });
      await expect.poll(() => heard.some((signal) => signal.taskId === later.taskId), patiently).toBe(true);
      expect(heard.filter((signal) => signal.taskId !== later.taskId)).toEqual([]);
      stop();
    });
    it('refuses tasks beyond the replica’s bound, and takes them again once some have ended', async () => {
      const bounded = await replica({ maxRunningTasks: 2 });
      const first = newTask();
      await bounded.tasks.create(first);
      await bounded.tasks.create(newTask());
      await expect(bounded.tasks.create(newTask())).rejects.toThrow(/already runs 2 unfinished tasks/);
      await bounded.tasks.update(first.taskId, { status: 'completed', result: { content: [] } }, Date.now());
      await bounded.tasks.create(newTask());
    });

    it('fails an unfinished task whose time to live has passed, and asks its replica to stop the work', async () => {
      const one = await replica();
      const heard: TaskSignal[] = [];
      const stop = one.tasks.onSignal((signal) => heard.push(signal));
      const task = newTask({ createdAt: Date.now() - 10_000, ttlMs: 1_000 });
      await one.tasks.create(task);
      await sweep();
      expect(await one.tasks.get(task.taskId)).toMatchObject({
        status: 'failed',
        statusMessage: timeToLivePassedMessage,
        error: { code: -32603, message: timeToLivePassedMessage },
      });
      await expect.poll(() => heard, patiently).toEqual([{ taskId: task.taskId, kind: 'cancel' }]);
      // The work ends as cancelled, too late: the store keeps saying why it failed.
      await one.tasks.update(task.taskId, { status: 'cancelled' }, Date.now());
      expect((await one.tasks.get(task.taskId))?.statusMessage).toBe(timeToLivePassedMessage);
      stop();
    });

    it('forgets a finished task once its time to live has passed', async () => {
      const one = await replica();
      const long = Date.now() - 600_000;
      const task = newTask({ createdAt: long, lastUpdatedAt: long, ttlMs: 60_000 });
      await one.tasks.create(task);
      await one.tasks.update(task.taskId, { status: 'completed', result: { content: [] } }, long + 1000);
      expect(await one.tasks.get(task.taskId)).toBeUndefined();
      await sweep();
      const fresh = newTask();
      await one.tasks.create(fresh);
      await one.tasks.update(fresh.taskId, { status: 'completed', result: { content: [] } }, Date.now());
      await sweep();
      expect((await one.tasks.get(fresh.taskId))?.status).toBe('completed');
    });

    it('fails the unfinished tasks of a replica that stops, saying so, and tells the others', async () => {
      const one = await replica();
      const three = await open();
      const task = newTask();
      await three.tasks.create(task);
      const changed: string[] = [];
      const stop = one.tasks.onChange((taskId) => changed.push(taskId));
      await three.close();
      expect(await one.tasks.get(task.taskId)).toMatchObject({
        status: 'failed',
        statusMessage: replicaStoppedMessage,
        error: { code: -32603, message: replicaStoppedMessage },
      });
      await expect.poll(() => changed.includes(task.taskId), patiently).toBe(true);
      stop();
    });
  });
}

taskContract('memory', async () => {
  const store = createMemoryTaskStore();
  return { one: store, two: store, tearDown: async () => {} };
});

function sqliteSetUp() {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-tasks-'));
  return {
    open: (options: OpenStateStoreOptions = {}) =>
      openStateStore({ ...options, location: join(directory, 'state.db') }),
    directory,
  };
}

taskContract('sqlite', async () => {
  const { open, directory } = sqliteSetUp();
  const one = await open();
  const two = await open();
  return {
    one: one.tasks,
    two: two.tasks,
    async tearDown() {
      await one.close();
      await two.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

sharedTaskStore('sqlite', async () => {
  const { open, directory } = sqliteSetUp();
  return { open, tearDown: async () => rmSync(directory, { recursive: true, force: true }) };
});

describe.runIf(serviceGate(postgresStateService, it))('with PostgreSQL', () => {
  let server: PostgresStateServer;
  const open = (options: OpenStateStoreOptions = {}) => openStateStore({ ...options, location: server.url });
  beforeAll(async () => {
    server = await startPostgresStateServer();
    process.env.PGPASSWORD = server.env.PGPASSWORD;
  });
  afterAll(async () => {
    await server?.stop();
  });

  taskContract('postgres', async () => {
    const one = await open();
    const two = await open();
    return {
      one: one.tasks,
      two: two.tasks,
      async tearDown() {
        await one.close();
        await two.close();
      },
    };
  });

  sharedTaskStore('postgres', async () => ({ open, tearDown: async () => {} }));
});
