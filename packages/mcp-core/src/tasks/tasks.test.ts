import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer, type McpServer } from '../server/create-mcp-server.ts';
import { awaitTask } from '../testing/await-task.ts';
import { connectTestClient, JsonRpcFailure, type TestClient } from '../testing/connect-test-client.ts';
import { defineTool } from '../tools/define-tool.ts';
import { createMemoryTaskStore } from './memory-task-store.ts';

/** A gate a test opens: work that cannot finish until the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function waitOrAbort(until: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    void until.then(resolve);
  });
}

const clients: TestClient[] = [];
const servers: McpServer[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

function serverWith(tools: Parameters<typeof defineTool>[0][], options: { limit?: number } = {}): McpServer {
  const server = createMcpServer({
    name: 'tasks-test',
    version: '1.0.0',
    tools: tools.map((tool) => defineTool(tool)),
    tasks: { store: createMemoryTaskStore(options.limit) },
    // Tools here fail on purpose; what reaches the client is what is checked.
    onServerError: () => {},
  });
  servers.push(server);
  return server;
}

async function connect(
  server: McpServer,
  transport: 'memory' | 'http',
  options: { tasks?: boolean; bearerToken?: string; tokens?: { token: string; subject: string }[] } = {},
): Promise<TestClient> {
  const client = await connectTestClient(
    { server },
    {
      client: 'v2-modern',
      transport,
      tasks: options.tasks ?? true,
      onElicit: () => ({ action: 'accept', content: {} }),
      ...(options.bearerToken === undefined ? {} : { bearerToken: options.bearerToken }),
      ...(options.tokens === undefined ? {} : { httpAuth: { tokens: options.tokens } }),
    },
  );
  clients.push(client);
  return client;
}

async function failureOf(promise: Promise<unknown>): Promise<JsonRpcFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof JsonRpcFailure) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe.each(['memory', 'http'] as const)('the tasks extension over %s', (transport) => {
  it('a call still running after taskAfterMs becomes a task; tasks/get reads it working, then completed with the result', async () => {
    const release = gate();
    const server = serverWith([
      {
        name: 'long_job',
        description: 'Waits for the test',
        input: z.object({ label: z.string() }),
        task: 'optional',
        taskAfterMs: 20,
        run: async ({ label }, context) => {
          context.progress(1, 4, 'a quarter done');
          await waitOrAbort(release.opened, context.signal);
          return `done: ${label}`;
        },
      },
    ]);
    const client = await connect(server, transport);
    const created = await client.request('tools/call', { name: 'long_job', arguments: { label: 'x' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000 });
    expect(created.taskId).toMatch(/^task-[\w-]{24}$/);
    const taskId = created.taskId as string;
    const working = await client.request('tasks/get', { taskId });
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    release.open();
    const done = await awaitTask(client, taskId);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done: x' }] } });
    expect(done).not.toHaveProperty('error');
    expect(client.recording.specViolations()).toEqual([]);
  });

  it('progress after the call became a task is its status message, not a notification', async () => {
    const release = gate();
    const server = serverWith([
      {
        name: 'counting',
        description: 'Counts',
        input: z.object({}),
        task: 'optional',
        run: async (_args, context) => {
          await context.continueAsTask('starting');
          context.progress(3, 10, 'rows copied');
          await waitOrAbort(release.opened, context.signal);
          return 'copied';
        },
      },
    ]);
    const client = await connect(server, transport);
    const created = await client.request('tools/call', { name: 'counting', arguments: {} });
    expect(created.statusMessage).toBe('starting');
    await expect
      .poll(async () => (await client.request('tasks/get', { taskId: created.taskId })).statusMessage)
      .toBe('rows copied (3/10)');
    release.open();
    expect((await awaitTask(client, created.taskId as string)).status).toBe('completed');
    const notifications = client.recording.messages.filter(
      (entry) => (entry.message as { method?: string }).method === 'notifications/progress',
    );
    expect(notifications).toEqual([]);
  });

  it('a client that did not declare the extension gets the ordinary answer, and -32021 from tasks/* and task-only tools', async () => {
    const server = serverWith([
      {
        name: 'maybe_task',
        description: 'Optional',
        input: z.object({}),
        task: 'optional',
        taskAfterMs: 0,
        run: async () => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return 'plain';
        },
      },
      { name: 'only_task', description: 'Required', input: z.object({}), task: 'required', run: () => 'never' },
    ]);
    const client = await connect(server, transport, { tasks: false });
    const plain = await client.request('tools/call', { name: 'maybe_task', arguments: {} });
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'plain' }] });
    const refused = await failureOf(client.request('tools/call', { name: 'only_task', arguments: {} }));
    expect(refused.code).toBe(-32021);
    expect(refused.data).toEqual({ requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect((await failureOf(client.request(method, { taskId: 'task-whatever' }))).code).toBe(-32021);
    }
    expect(client.recording.specViolations()).toEqual([]);
  });

  it('a task-only tool that finishes at once still answers with a task, already complete', async () => {
    const server = serverWith([
      { name: 'quick', description: 'Quick', input: z.object({}), task: 'required', run: () => 'at once' },
    ]);
    const client = await connect(server, transport);
    const created = await client.request('tools/call', { name: 'quick', arguments: {} });
    expect(created.resultType).toBe('task');
    const task = await awaitTask(client, created.taskId as string);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: 'at once' }] } });
  });

  it('tasks/cancel reaches the work through its signal: the task ends cancelled; cancelling again is acknowledged', async () => {
    let aborted = false;
    const server = serverWith([
      {
        name: 'endless',
        description: 'Never ends by itself',
        input: z.object({}),
        task: 'optional',
        taskAfterMs: 0,
        run: async (_args, context) => {
          context.signal.addEventListener('abort', () => {
            aborted = true;
          });
          await waitOrAbort(new Promise(() => {}), context.signal);
          return 'unreachable';
        },
      },
    ]);
    const client = await connect(server, transport);
    const { taskId } = await client.request('tools/call', { name: 'endless', arguments: {} });
    expect(await client.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    const task = await awaitTask(client, taskId as string);
    expect(task).toMatchObject({ status: 'cancelled' });
    expect(aborted).toBe(true);
    expect(await client.request('tasks/cancel', { taskId })).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    expect((await failureOf(client.request('tasks/get', { taskId: 'task-nope' }))).code).toBe(-32602);
    expect((await failureOf(client.request('tasks/cancel', { taskId: 'task-nope' }))).code).toBe(-32602);
  });

  it('questions during a task are its inputRequests; tasks/update answers them and the task goes on', async () => {
    const server = serverWith([
      {
        name: 'ask_during',
        description: 'Asks after becoming a task',
        input: z.object({}),
        task: 'optional',
        run: async (_args, context) => {
          await context.continueAsTask();
          const answer = await context.elicit({
            key: 'colour',
            message: 'Favourite colour?',
            schema: z.object({ colour: z.string() }),
          });
          return answer.action === 'accept' ? `likes ${answer.content.colour}` : answer.action;
        },
      },
    ]);
    const client = await connect(server, transport);
    const { taskId } = await client.request('tools/call', { name: 'ask_during', arguments: {} });
    const asking = await awaitTask(client, taskId as string, { until: 'input_required' });
    expect(asking).toMatchObject({
      status: 'input_required',
      inputRequests: { colour: { method: 'elicitation/create', params: { message: 'Favourite colour?' } } },
    });
    // An answer to a question never asked is ignored; the right one lets the task go on.
    await client.request('tasks/update', { taskId, inputResponses: { other: { action: 'accept', content: {} } } });
    expect((await client.request('tasks/get', { taskId })).status).toBe('input_required');
    await client.request('tasks/update', {
      taskId,
      inputResponses: { colour: { action: 'accept', content: { colour: 'teal' } } },
    });
    const done = await awaitTask(client, taskId as string);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'likes teal' }] } });
    expect(client.recording.specViolations()).toEqual([]);
  });

  it('a tool that throws a protocol error fails its task with that error; a thrown bug is a completed isError result', async () => {
    const server = serverWith([
      {
        name: 'protocol_fault',
        description: 'Fails',
        input: z.object({}),
        task: 'required',
        run: async (_args, context) => {
          await context.continueAsTask();
          const { ProtocolError } = await import('../errors/protocol-error.ts');
          throw new ProtocolError(-32603, 'the backend refused');
        },
      },
      {
        name: 'buggy',
        description: 'Throws',
        input: z.object({}),
        task: 'required',
        run: async (_args, context) => {
          await context.continueAsTask();
          throw new TypeError('oops');
        },
      },
    ]);
    const client = await connect(server, transport);
    const failed = await awaitTask(
      client,
      (await client.request('tools/call', { name: 'protocol_fault', arguments: {} })).taskId as string,
    );
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'the backend refused' } });
    expect(failed).not.toHaveProperty('result');
    const buggy = await awaitTask(
      client,
      (await client.request('tools/call', { name: 'buggy', arguments: {} })).taskId as string,
    );
    expect(buggy).toMatchObject({ status: 'completed', result: { isError: true } });
  });
});

describe('tasks and callers', () => {
  it("a task belongs to the caller who made it: another caller's tasks/get, update and cancel read as not found", async () => {
    const release = gate();
    const server = serverWith([
      {
        name: 'private_job',
        description: 'Waits',
        input: z.object({}),
        task: 'optional',
        taskAfterMs: 0,
        run: async (_args, context) => {
          await waitOrAbort(release.opened, context.signal);
          return 'mine';
        },
      },
    ]);
    const tokens = [
      { token: 'token-of-alice-0123456789', subject: 'alice' },
      { token: 'token-of-mallory-012345678', subject: 'mallory' },
    ];
    const alice = await connect(server, 'http', { tokens, bearerToken: 'token-of-alice-0123456789' });
    const mallory = await connect(server, 'http', { tokens, bearerToken: 'token-of-mallory-012345678' });
    const { taskId } = await alice.request('tools/call', { name: 'private_job', arguments: {} });
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/cancel', {}],
      ['tasks/update', { inputResponses: {} }],
    ] as const) {
      const refused = await failureOf(mallory.request(method, { taskId, ...extra }));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toMatch(/not found/);
    }
    expect((await alice.request('tasks/get', { taskId })).status).toBe('working');
    release.open();
    expect((await awaitTask(alice, taskId as string)).status).toBe('completed');
  });

  it('2025-era clients see no tasks: the same call answers synchronously, and tasks/get is not a method', async () => {
    const server = serverWith([
      {
        name: 'maybe_task',
        description: 'Optional',
        input: z.object({}),
        task: 'optional',
        taskAfterMs: 0,
        run: async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return 'synchronous';
        },
      },
    ]);
    const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
    clients.push(client);
    const result = await client.callTool('maybe_task');
    expect(result.content).toEqual([{ type: 'text', text: 'synchronous' }]);
    const sdk = client.sdk as { request(request: unknown, schema: unknown): Promise<unknown> };
    const { z: zod } = await import('zod');
    await expect(
      sdk.request({ method: 'tasks/get', params: { taskId: 'task-x' } }, zod.object({}).loose()),
    ).rejects.toThrow(/Method not found/);
    expect(client.protocolProblems()).toEqual([]);
  });

  it('closing the server fails the tasks it was running, saying why, instead of leaving them working', async () => {
    const store = createMemoryTaskStore();
    const server = createMcpServer({
      name: 'closing',
      version: '1.0.0',
      tasks: { store },
      tools: [
        defineTool({
          name: 'stuck',
          description: 'Never ends',
          input: z.object({}),
          task: 'required',
          run: async (_args, context) => {
            await waitOrAbort(new Promise(() => {}), context.signal);
            return 'never';
          },
        }),
      ],
    });
    const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', tasks: true });
    const { taskId } = await client.request('tools/call', { name: 'stuck', arguments: {} });
    await client.close();
    await server.close();
    const task = await store.get(taskId as string);
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(task?.error?.message).toMatch(/shut down/);
  });

  it('a full store makes no more tasks: the call is answered as an ordinary request instead', async () => {
    const server = serverWith(
      [
        {
          name: 'slowish',
          description: 'Takes a moment',
          input: z.object({ n: z.number() }),
          task: 'optional',
          taskAfterMs: 0,
          run: async ({ n }, context) => {
            if (n === 0) await waitOrAbort(new Promise(() => {}), context.signal);
            await new Promise((resolve) => setTimeout(resolve, 20));
            return `call ${n}`;
          },
        },
      ],
      { limit: 1 },
    );
    const client = await connect(server, 'memory');
    expect((await client.request('tools/call', { name: 'slowish', arguments: { n: 0 } })).resultType).toBe('task');
    const second = await client.request('tools/call', { name: 'slowish', arguments: { n: 1 } });
    expect(second).toMatchObject({ resultType: 'complete', content: [{ text: 'call 1' }] });
  });

  it('subscriptions/listen with taskIds sends notifications/tasks as the task changes, the finished task inlined', async () => {
    const release = gate();
    const server = serverWith([
      {
        name: 'watched',
        description: 'Waits',
        input: z.object({}),
        task: 'optional',
        taskAfterMs: 0,
        run: async (_args, context) => {
          await waitOrAbort(release.opened, context.signal);
          return 'watched and done';
        },
      },
    ]);
    const client = await connect(server, 'memory');
    const { taskId } = await client.request('tools/call', { name: 'watched', arguments: {} });
    const notificationsOf = (method: string) =>
      client.recording.messages
        .map((entry) => entry.message as { method?: string; params?: Record<string, unknown> })
        .filter((message) => message.method === method);
    void client
      .request('subscriptions/listen', { notifications: { taskIds: [taskId, 'task-not-mine'] } })
      .catch(() => {});
    await expect.poll(() => notificationsOf('notifications/subscriptions/acknowledged').length).toBe(1);
    expect(notificationsOf('notifications/subscriptions/acknowledged')[0]?.params?.notifications).toEqual({
      taskIds: [taskId],
    });
    release.open();
    await expect
      .poll(() => notificationsOf('notifications/tasks').map((message) => message.params?.status))
      .toContain('completed');
    const finished = notificationsOf('notifications/tasks').find((message) => message.params?.status === 'completed');
    expect(finished?.params).toMatchObject({ taskId, result: { content: [{ text: 'watched and done' }] } });
    expect(client.recording.specViolations()).toEqual([]);

    const undeclared = await connect(server, 'memory', { tasks: false });
    const refused = await failureOf(
      undeclared.request('subscriptions/listen', { notifications: { taskIds: [taskId] } }),
    );
    expect(refused.code).toBe(-32021);
  });
});
