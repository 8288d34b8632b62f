import { awaitTask, connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresService, startPostgresServer } from '../__fixtures__/postgres-server.ts';
import { createSqlServer } from '../create-sql-server.ts';

// pg_sleep is refused by the statement gate; a cross join of three series never ends either, and keeps each
// series small enough to stay in memory while it runs.
const forever =
  'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b, generate_series(1, 100000) c';

let postgres: PostgresServer;
let admin: pg.Client;
const closing: (() => Promise<void>)[] = [];

/** The sessions running the endless statement now, seen from outside. */
async function runningForever(): Promise<number[]> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()', [
    forever,
  ]);
  return rows.map((row: { pid: number }) => row.pid);
}

function serveQueries(timeoutMs: number): ReturnType<typeof createSqlServer> {
  const server = createSqlServer({ databases: { app: postgres.url('reader') }, limits: { timeoutMs } });
  closing.push(() => server.close());
  return server;
}

async function connect(
  server: ReturnType<typeof createSqlServer>,
  options: { tasks: boolean; transport?: 'memory' | 'http' },
): Promise<TestClient> {
  const client = await connectTestClient(
    { server },
    { client: 'v2-modern', transport: options.transport ?? 'memory', tasks: options.tasks },
  );
  closing.unshift(() => client.close());
  return client;
}

describe.runIf(serviceGate(postgresService, it))('query as a task on PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer();
    admin = await postgres.admin();
  }, 120_000);

  afterAll(async () => {
    for (const close of closing.splice(0)) await close();
    await admin?.end();
    await postgres?.stop();
  });

  it.each(['memory', 'http'] as const)(
    'over %s: a long query becomes a task, and tasks/cancel stops its statement on the server',
    async (transport) => {
      // A limit no machine reaches here: only tasks/cancel can stop the statement.
      const client = await connect(serveQueries(600_000), { tasks: true, transport });
      const created = await client.request('tools/call', { name: 'query', arguments: { sql: forever } });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.taskId as string;
      // The request has been answered; the statement goes on, as the task.
      await expect.poll(runningForever, { timeout: 30_000 }).toHaveLength(1);
      expect(await client.request('tasks/get', { taskId })).toMatchObject({ status: 'working' });

      await client.request('tasks/cancel', { taskId });
      expect(await awaitTask(client, taskId)).toMatchObject({ status: 'cancelled' });
      await expect.poll(runningForever, { timeout: 30_000 }).toEqual([]);
      const { rows } = await admin.query(
        "SELECT count(*)::int AS active FROM pg_stat_activity WHERE application_name = 'toolshed-sql' AND state = 'active'",
      );
      expect(rows[0].active).toBe(0);

      // A quick query from the same client is answered at once, as ever.
      const quick = await client.request('tools/call', { name: 'query', arguments: { sql: 'SELECT 1 AS one' } });
      expect(quick).toMatchObject({ resultType: 'complete', structuredContent: { rows: [[1]] } });
      expect(quick).not.toHaveProperty('taskId');
      expect(client.protocolProblems()).toEqual([]);
    },
    120_000,
  );

  describe('with a time limit of five seconds', () => {
    let server: ReturnType<typeof createSqlServer>;

    beforeAll(async () => {
      server = serveQueries(5_000);
    });

    it('a task keeps the time limit: its statement is stopped there, and the task completes with the error', async () => {
      const client = await connect(server, { tasks: true });
      const answer = await client.request('tools/call', { name: 'query', arguments: { sql: forever } });
      // Two seconds in, the call becomes a task; a machine too loaded to get there before the limit answers
      // the same result synchronously, so both are accepted and the result is what is checked.
      const result = answer.resultType === 'task' ? (await awaitTask(client, answer.taskId as string)).result : answer;
      expect(result).toMatchObject({ isError: true });
      expect(JSON.stringify(result)).toMatch(/stopped after 5000 ms, the time limit/);
      await expect.poll(runningForever, { timeout: 30_000 }).toEqual([]);
    }, 60_000);

    it('a client without the tasks extension gets the usual synchronous answer, however long the call runs', async () => {
      const client = await connect(server, { tasks: false });
      const stopped = await client.request('tools/call', { name: 'query', arguments: { sql: forever } });
      expect(stopped).toMatchObject({ resultType: 'complete', isError: true });
      expect(JSON.stringify(stopped)).toMatch(/stopped after 5000 ms, the time limit/);
      const quick = await client.callTool('query', { sql: 'SELECT 2 AS two' });
      expect(quick.structuredContent).toMatchObject({ columns: [{ name: 'two' }], rows: [[2]] });
      expect(client.protocolProblems()).toEqual([]);
    }, 60_000);
  });
});
