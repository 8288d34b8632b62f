import { createMcpServer, defineTool, type HttpServerHandle, serveHttp } from '@toolshed/mcp-core';
import { awaitTask, connectTestClient, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type HostHarness, startHostHarness, textOf } from './__fixtures__/host-harness.ts';

/** Work the test finishes: it cannot end before the test says so, or before it is cancelled. */
function heldWork() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, released };
}

function until(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    void promise.then(resolve);
  });
}

describe('tasks an upstream answers with, followed by the host to their end', () => {
  const report = heldWork();
  const seen = { cancelled: 0, asked: 0 };
  let upstream: HttpServerHandle;
  let harness: HostHarness;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    const server = createMcpServer({
      name: 'tasks-upstream',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'slow_report',
          description: 'A report that takes as long as it takes',
          input: z.object({ title: z.string() }),
          annotations: { readOnlyHint: true },
          task: 'optional',
          taskAfterMs: 0,
          run: async ({ title }, context) => {
            context.signal.addEventListener('abort', () => {
              seen.cancelled += 1;
            });
            context.progress(1, 2, 'gathering figures');
            await until(report.released, context.signal);
            return `report: ${title}`;
          },
        }),
        defineTool({
          name: 'task_only',
          description: 'Answers only as a task',
          input: z.object({}),
          annotations: { readOnlyHint: true },
          task: 'required',
          run: () => 'done as a task',
        }),
        defineTool({
          name: 'ask_then_work',
          description: 'Asks a name during its task',
          input: z.object({}),
          annotations: { readOnlyHint: true },
          task: 'optional',
          run: async (_args, context) => {
            await context.continueAsTask();
            seen.asked += 1;
            const answer = await context.elicit({ message: 'Who is asking?', schema: z.object({ name: z.string() }) });
            return answer.action === 'accept' ? `hello ${answer.content.name}` : `no answer (${answer.action})`;
          },
        }),
      ],
    });
    upstream = await serveHttp(server, { host: '127.0.0.1', port: 0 });
    harness = await startHostHarness(() => ({ mcpServers: { up: { url: upstream.url } } }));
  });

  afterAll(async () => {
    report.release();
    for (const client of clients) await client.close();
    await harness?.close();
    await upstream?.close();
  });

  it('a task-only upstream tool is callable by a client that knows nothing of tasks: the host follows the task and answers', async () => {
    const result = await harness.call('up_task_only', {});
    expect(result.isError, textOf(result)).not.toBe(true);
    expect(textOf(result)).toBe('done as a task');
  });

  it("the upstream's questions during its task reach the caller, and its answer goes back with tasks/update", async () => {
    harness.forms['Who is asking?'] = { name: 'Grace' };
    const result = await harness.call('up_ask_then_work', {});
    expect(textOf(result)).toBe('hello Grace');
    expect(harness.asked).toContain('Who is asking?');
    expect(harness.specViolations()).toEqual([]);
  });

  it('for a client that takes tasks the long upstream call is a host task: read through the host, cancelled upstream with it', async () => {
    const client = await connectTestClient(
      { server: harness.host.server },
      { client: 'v2-modern', transport: 'memory', tasks: true },
    );
    clients.push(client);
    const created = await client.request('tools/call', { name: 'up_slow_report', arguments: { title: 'Q3' } });
    expect(created.resultType).toBe('task');
    const taskId = created.taskId as string;
    await expect
      .poll(async () => (await client.request('tasks/get', { taskId })).statusMessage)
      .toMatch(/gathering figures/);
    expect(await client.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect((await awaitTask(client, taskId)).status).toBe('cancelled');
    await expect.poll(() => seen.cancelled).toBe(1);

    const second = await client.request('tools/call', { name: 'up_slow_report', arguments: { title: 'Q4' } });
    expect(second.resultType).toBe('task');
    report.release();
    const done = await awaitTask(client, second.taskId as string);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'report: Q4' }] } });
    expect(client.recording.specViolations()).toEqual([]);
  });
});
