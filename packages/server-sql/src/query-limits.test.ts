import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { awaitTask, connectInMemory, connectTestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

const forever = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/** This process's query processes, read from /proc. */
function queryProcessIds(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('query-process');
      } catch {
        return false;
      }
    })
    .map(Number);
}

let sample: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
const client = new Client({ name: 'test', version: '1' });

type Result = {
  content: { text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown> & { rows: unknown[][] };
};

async function query(args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name: 'query', arguments: args })) as unknown as Result;
}

beforeAll(async () => {
  sample = createSampleDatabase();
  server = createSqlServer({
    databases: sample.path,
    limits: { timeoutMs: 1000, maxConcurrentQueries: 2, maxResultBytes: 2000 },
  });
  await connectInMemory(server, client);
});

afterAll(async () => {
  await client.close();
  await server.close();
  sample.remove();
});

describe('time limit and cancellation', () => {
  it('stops a query that runs forever at the limit', async () => {
    const started = performance.now();
    const stopped = await query({ sql: forever });
    expect(stopped.isError).toBe(true);
    expect(stopped.content[0]?.text).toMatch(/stopped after 1000 ms, the time limit/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('answers a quick query while an endless one runs', async () => {
    // A limit no machine reaches here, so only the order of answers is shown, never a duration.
    const patient = createSqlServer({
      databases: sample.path,
      limits: { timeoutMs: 600_000, maxConcurrentQueries: 2 },
    });
    const patientClient = new Client({ name: 'patient', version: '1' });
    await connectInMemory(patient, patientClient);
    try {
      const cancel = new AbortController();
      let slowSettled = false;
      const slow = patientClient
        .callTool({ name: 'query', arguments: { sql: forever } }, undefined, { signal: cancel.signal })
        .finally(() => {
          slowSettled = true;
        });
      slow.catch(() => {});
      const quick = (await patientClient.callTool({
        name: 'query',
        arguments: { sql: 'SELECT count(*) FROM orders' },
      })) as unknown as Result;
      expect(quick.structuredContent?.rows).toEqual([[250]]);
      expect(slowSettled).toBe(false);
      cancel.abort();
      await expect(slow).rejects.toThrow();
    } finally {
      await patientClient.close();
      await patient.close();
    }
  });

  it('reports progress against the time limit while a slow query runs', async () => {
    const seen: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    const result = await client.callTool({ name: 'query', arguments: { sql: forever } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(result.isError).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toMatchObject({
      total: 1000,
      message: expect.stringMatching(/query running for \d+ ms; it is stopped at 1000 ms/),
    });
    expect(seen.map((progress) => progress.progress)).toEqual(
      [...seen.map((progress) => progress.progress)].sort((a, b) => a - b),
    );
  });

  it.each(testClientKinds)(
    '%s: cancelling a call kills its query process, and the next call gets a fresh one',
    async (kind) => {
      const own = createSqlServer({ databases: sample.path, limits: { timeoutMs: 600_000 } });
      const connection = await connectTestClient({ server: own }, { client: kind, transport: 'memory' });
      try {
        await connection.callTool('query', { sql: 'SELECT 1' });
        const before = queryProcessIds();
        const controller = new AbortController();
        const cancelled = connection.callTool('query', { sql: forever }, { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 200));
        controller.abort('changed my mind');
        await expect(cancelled).rejects.toThrow();
        // Only that the process goes is shown, not how fast: the limit is a guard against a hang.
        await expect.poll(() => queryProcessIds().length, { timeout: 30_000 }).toBeLessThan(before.length);
        const next = await connection.callTool('query', { sql: 'SELECT 2' });
        expect(next.structuredContent?.rows).toEqual([[2]]);
      } finally {
        await connection.close();
        await own.close();
      }
    },
    60_000,
  );

  it('a query that went on as a task and is cancelled with tasks/cancel kills its query process', async () => {
    const own = createSqlServer({ databases: sample.path, limits: { timeoutMs: 600_000 } });
    const connection = await connectTestClient(
      { server: own },
      { client: 'v2-modern', transport: 'memory', tasks: true },
    );
    try {
      await connection.callTool('query', { sql: 'SELECT 1' });
      const before = queryProcessIds();
      const created = await connection.request('tools/call', { name: 'query', arguments: { sql: forever } });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      await connection.request('tasks/cancel', { taskId: created.taskId });
      expect(await awaitTask(connection, created.taskId as string)).toMatchObject({ status: 'cancelled' });
      await expect.poll(() => queryProcessIds().length, { timeout: 30_000 }).toBeLessThan(before.length);
      // A new query process starts for it; on a busy machine that can outlast taskAfterMs, so it may be a task.
      const next = await connection.request('tools/call', { name: 'query', arguments: { sql: 'SELECT 4' } });
      const result = next.resultType === 'task' ? (await awaitTask(connection, next.taskId as string)).result : next;
      expect(result).toMatchObject({ structuredContent: { rows: [[4]] } });
    } finally {
      await connection.close();
      await own.close();
    }
  }, 60_000);

  it('reports a query process that died under a call, and recovers', async () => {
    const own = createSqlServer({ databases: sample.path, limits: { timeoutMs: 600_000 } });
    const ownClient = new Client({ name: 'test', version: '1' });
    await connectInMemory(own, ownClient);
    try {
      // The first progress report says the statement is running in its process: only then is it killed.
      let running: () => void = () => {};
      const statementRuns = new Promise<void>((resolve) => {
        running = resolve;
      });
      const call = ownClient.callTool({ name: 'query', arguments: { sql: forever } }, undefined, {
        onprogress: () => running(),
      }) as Promise<unknown> as Promise<Result>;
      await statementRuns;
      for (const pid of queryProcessIds()) process.kill(pid, 'SIGKILL');
      const died = await call;
      expect(died.isError).toBe(true);
      expect(died.content[0]?.text).toMatch(/query process ended while running the query/);
      const next = (await ownClient.callTool({ name: 'query', arguments: { sql: 'SELECT 3' } })) as unknown as Result;
      expect(next.structuredContent?.rows).toEqual([[3]]);
    } finally {
      await ownClient.close();
      await own.close();
    }
  });

  it('ends every query process when the server closes', async () => {
    const before = queryProcessIds().length;
    const local = createSqlServer({ databases: sample.path });
    const localClient = new Client({ name: 'test', version: '1' });
    await connectInMemory(local, localClient);
    await localClient.callTool({ name: 'query', arguments: { sql: 'SELECT 1' } });
    expect(queryProcessIds().length).toBeGreaterThan(before);
    await local.close();
    await expect.poll(() => queryProcessIds().length, { timeout: 30_000 }).toBe(before);
  });
});

describe('byte cap', () => {
  it('cuts rows at the byte cap and says so', async () => {
    const result = await query({ sql: 'SELECT * FROM orders', max_rows: 200 });
    expect(result.structuredContent).toMatchObject({ truncated: true, truncated_by: 'max_bytes' });
    expect(JSON.stringify(result.structuredContent?.rows).length).toBeLessThanOrEqual(2000);
    expect(result.structuredContent?.rows.length).toBeGreaterThan(10);
    expect(result.structuredContent?.hint).toMatch(/byte result cap/);
  });
});

describe('no query process outlives its server', () => {
  it('ends a query process stuck in a statement when the server is killed with SIGKILL', async () => {
    const { spawn } = await import('node:child_process');
    const bin = new URL('./cli.ts', import.meta.url).pathname;
    const server = spawn(process.execPath, [bin, '--db', sample.path, '--timeout-ms', '60000'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const send = (message: unknown) => server.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query', arguments: { sql: forever } } });
    const childrenOf = (parent: number) =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((pid) => {
          try {
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
            return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
          } catch {
            return false;
          }
        })
        .map(Number);
    await expect.poll(() => childrenOf(server.pid as number).length, { timeout: 5000 }).toBeGreaterThan(0);
    // Let the statement start: the query process is now deaf to its IPC channel.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const orphans = childrenOf(server.pid as number);
    server.kill('SIGKILL');
    const alive = (pid: number) => {
      try {
        return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    };
    await expect.poll(() => orphans.filter(alive), { timeout: 3000 }).toEqual([]);
  });
});
