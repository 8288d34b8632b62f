import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { awaitTask, connectTestClient, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

// Backtracks without end on the file below: the search cannot finish, and only a cancel can stop it.
const endlessSearch = { path: '.', pattern: '^(a+)+$', regex: true };

let sandbox: Sandbox;
let server: ReturnType<typeof createFilesystemServer>;
const clients: TestClient[] = [];

async function connect(options: { tasks: boolean; roots?: string[] }): Promise<TestClient> {
  const client = await connectTestClient(
    { server },
    {
      client: 'v2-modern',
      transport: 'memory',
      tasks: options.tasks,
      ...(options.roots === undefined
        ? {}
        : { roots: options.roots.map((path) => ({ uri: pathToFileURL(path).href })) }),
    },
  );
  clients.push(client);
  return client;
}

beforeAll(() => {
  sandbox = createSandbox();
  writeFileSync(join(sandbox.allowed, 'docs', 'redos.txt'), `${'a'.repeat(40)}!`);
  // A regular expression time limit no machine reaches here.
  server = createFilesystemServer({ directories: [sandbox.allowed], limits: { regexTimeoutMs: 3_600_000 } });
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

afterAll(async () => {
  await server.close();
  sandbox.remove();
});

describe('search_file_contents as a task', () => {
  it('a search still running becomes a task, and tasks/cancel stops it, mid-expression', async () => {
    const client = await connect({ tasks: true });
    const created = await client.request('tools/call', { name: 'search_file_contents', arguments: endlessSearch });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    await client.request('tasks/cancel', { taskId });
    // The task ends when the search has stopped; the expression's worker is ended with it, not at its time limit.
    expect(await awaitTask(client, taskId)).toMatchObject({ status: 'cancelled' });
    expect(client.protocolProblems()).toEqual([]);
  }, 60_000);

  it('a quick search answers at once, the same for a client that takes tasks and one that does not', async () => {
    const search = { path: '.', pattern: 'TODO' };
    const plain = await (await connect({ tasks: false })).callTool('search_file_contents', search);
    expect(plain.structuredContent).toMatchObject({ matches: [{ line: 2, text: '// TODO: more' }], truncated: false });
    const quick = await (await connect({ tasks: true })).request('tools/call', {
      name: 'search_file_contents',
      arguments: search,
    });
    expect(quick).toMatchObject({ resultType: 'complete', structuredContent: plain.structuredContent });
  });

  it("the client's roots are asked as a round of the request, before the call can become a task", async () => {
    const docs = join(sandbox.allowed, 'docs');
    const client = await connect({ tasks: true, roots: [docs] });
    const params = { name: 'search_file_contents', arguments: endlessSearch };
    const asking = await client.request('tools/call', params);
    expect(asking).toMatchObject({ resultType: 'input_required' });
    const questions = Object.entries(asking.inputRequests as Record<string, { method: string }>);
    expect(questions.map(([, question]) => question.method)).toEqual(['roots/list']);
    const [key] = questions[0] as [string, unknown];
    const created = await client.request('tools/call', {
      ...params,
      inputResponses: { [key]: { roots: [{ uri: pathToFileURL(docs).href }] } },
      requestState: asking.requestState,
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    await client.request('tasks/cancel', { taskId: created.taskId });
    expect(await awaitTask(client, created.taskId as string)).toMatchObject({ status: 'cancelled' });
  }, 60_000);
});
