/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) over Streamable HTTP
 * in the 2026-07-28 era: one mcp-core server process (servers/http-tasks.mjs)
 * on 127.0.0.1, driven by the minimal keep-alive client of the echo bench
 * (one socket per caller, raw framing; see raw-http-client.ts), every POST
 * carrying its `_meta` and the MCP-Protocol-Version / Mcp-Method / Mcp-Name
 * headers, tasks declared only by the callers that want them.
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *   node bench/tasks-bench.ts                    (this bench alone)
 *
 * a. Reading a task: `tasks/get` of a completed task against `tools/call` of
 *    an echo tool, 1 and 8 callers with one request in flight each, in
 *    BENCH_ROUNDS (default 20) rounds of 300 ms that alternate between the
 *    two; the rate is the median round.
 * b. What a task adds to a one-second call: a tool that sleeps 1000 ms
 *    (`task: 'optional', taskAfterMs: 0`), called by a client without the
 *    extension (an ordinary answer) and by one with it (a task at once, then
 *    `tasks/get` polled at the `pollIntervalMs` each answer suggests until the
 *    task is completed), one call of each a round, taken in turn, over
 *    BENCH_ROUNDS rounds: request to result, median. The poll lag is how long
 *    after the server recorded the result the client read it.
 *
 * Every answer is checked; an error or a wrongly shaped answer stops the run
 * with a non-zero exit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { keepBusy } from './busy-callers.ts';
import { checkEchoAnswer } from './check-answer.ts';
import { killOnExit } from './child-processes.ts';
import { modernHeaders, modernMeta, modernProtocolVersion } from './protocol-eras.ts';
import { RawHttpClient } from './raw-http-client.ts';
import { RoundRecorder, type RoundSummary } from './round-summary.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const roundMs = 300;
const warmUpMs = 500;
const loads = [1, 8] as const;
const sleepMs = 1000;
/** What a task may add to a one-second call. */
const barPercent = 5;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

const withTasks = {
  ...modernMeta,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

async function startServer(): Promise<{ url: URL; stop(): void }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = killOnExit(
    spawn(process.execPath, [...nodeArgs, new URL('servers/http-tasks.mjs', import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const found = /READY (\S+)/.exec(chunk);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { url: new URL(url), stop: () => child.kill(nodeArgs.length > 0 ? 'SIGINT' : 'SIGKILL') };
}

/**
 * One 2026-era request on a caller's own socket; resolves the result of a
 * successful answer. `params` comes serialized, so the load generator spends
 * its time waiting, not encoding.
 */
async function request(
  client: RawHttpClient,
  id: number,
  method: string,
  name: string,
  params: string,
): Promise<Record<string, unknown>> {
  const body = `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}`;
  const answer = await client.post(modernHeaders(method, name), body);
  const contentType = /\r\ncontent-type: *([^\r;]+)/i.exec(answer.head)?.[1]?.trim();
  if (answer.status !== 200 || contentType !== 'application/json') {
    throw new Error(`${method}: expected 200 application/json, got ${answer.status} ${contentType}: ${answer.body}`);
  }
  const message = JSON.parse(answer.body) as { id?: unknown; result?: Record<string, unknown> };
  if (message.id !== id || message.result === undefined) {
    throw new Error(`${method}: not a result for request ${id}: ${answer.body.slice(0, 300)}`);
  }
  return message.result;
}

function checkTask(result: Record<string, unknown>, what: string): { taskId: string; pollIntervalMs: number } {
  const { resultType, taskId, pollIntervalMs } = result;
  if (resultType !== 'task' || typeof taskId !== 'string' || typeof pollIntervalMs !== 'number') {
    throw new Error(`${what}: not a task: ${JSON.stringify(result).slice(0, 300)}`);
  }
  return { taskId, pollIntervalMs };
}

function checkCompleted(task: Record<string, unknown>, expected: string, what: string): void {
  const content = (task.result as { content?: { text?: string }[] } | undefined)?.content;
  if (task.resultType !== 'complete' || task.status !== 'completed' || content?.[0]?.text !== expected) {
    throw new Error(`${what}: not the completed task expected: ${JSON.stringify(task).slice(0, 300)}`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Caller {
  client: RawHttpClient;
  call(id: number): Promise<void>;
}

async function echoCaller(url: URL): Promise<Caller> {
  const client = await RawHttpClient.open(url);
  const params = JSON.stringify({ name: 'echo', arguments: { text }, _meta: modernMeta });
  return {
    client,
    async call(id) {
      const result = await request(client, id, 'tools/call', 'echo', params);
      checkEchoAnswer({ result }, 'modern', text, 'tools/call echo');
    },
  };
}

/** A caller with a task of its own, completed before the clock starts, which it reads again and again. */
async function taskReader(url: URL, ids: { next: number }): Promise<Caller> {
  const client = await RawHttpClient.open(url);
  const create = JSON.stringify({ name: 'echo_task', arguments: { text }, _meta: withTasks });
  const { taskId } = checkTask(
    await request(client, ids.next++, 'tools/call', 'echo_task', create),
    'tools/call echo_task',
  );
  const params = JSON.stringify({ taskId, _meta: withTasks });
  return {
    client,
    async call(id) {
      checkCompleted(await request(client, id, 'tasks/get', taskId, params), text, 'tasks/get');
    },
  };
}

/** A plain call of the sleeping tool: request to result, in ms. */
async function sleepPlainly(client: RawHttpClient, ids: { next: number }): Promise<number> {
  const params = JSON.stringify({ name: 'sleep', arguments: { ms: sleepMs }, _meta: modernMeta });
  const started = performance.now();
  const result = await request(client, ids.next++, 'tools/call', 'sleep', params);
  const elapsed = performance.now() - started;
  if (result.resultType !== 'complete' || (result.content as { text?: string }[])[0]?.text !== 'slept') {
    throw new Error(`plain sleep: not the ordinary answer: ${JSON.stringify(result).slice(0, 300)}`);
  }
  return elapsed;
}

interface TaskTiming {
  /** Request to result, in ms. */
  total: number;
  /** From the server recording the result to the client reading it, in ms. */
  lag: number;
  polls: number;
  /** The interval the server suggested before the poll that read the result. */
  lastInterval: number;
}

/** The same call as a task, polled at the interval each answer suggests. */
async function sleepAsTask(client: RawHttpClient, ids: { next: number }): Promise<TaskTiming> {
  const params = JSON.stringify({ name: 'sleep', arguments: { ms: sleepMs }, _meta: withTasks });
  const started = performance.now();
  const created = await request(client, ids.next++, 'tools/call', 'sleep', params);
  const { taskId, pollIntervalMs: firstInterval } = checkTask(created, 'task sleep');
  let pollIntervalMs = firstInterval;
  const get = JSON.stringify({ taskId, _meta: withTasks });
  for (let polls = 1; ; polls++) {
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    const task = await request(client, ids.next++, 'tasks/get', taskId, get);
    if (task.status === 'completed') {
      const total = performance.now() - started;
      checkCompleted(task, 'slept', 'task sleep');
      const lag = Date.now() - Date.parse(String(task.lastUpdatedAt));
      return { total, lag, polls, lastInterval: pollIntervalMs };
    }
    if (task.status !== 'working') throw new Error(`task sleep: ${JSON.stringify(task).slice(0, 300)}`);
    pollIntervalMs = Number(task.pollIntervalMs);
  }
}

function failing(what: string) {
  return (error: unknown): never => {
    throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
  };
}

const server = await startServer();
const reads = new Map<number, { echo: RoundSummary; get: RoundSummary }>();
const plain: number[] = [];
const asTask: TaskTiming[] = [];
try {
  const ids = { next: 1 };
  for (const clients of loads) {
    const cells = [
      { what: 'tools/call echo', open: () => echoCaller(server.url) },
      { what: 'tasks/get', open: () => taskReader(server.url, ids) },
    ].map((cell) => ({ ...cell, recorder: new RoundRecorder(), callers: [] as Caller[] }));
    for (const cell of cells) {
      cell.callers = await Promise.all(Array.from({ length: clients }, cell.open)).catch(failing(cell.what));
      await keepBusy(cell.callers, warmUpMs, ids).catch(failing(cell.what));
    }
    for (let round = 0; round < rounds; round++) {
      // Each round starts with the other cell, so neither always follows the other.
      for (const cell of round % 2 === 0 ? cells : [...cells].reverse()) {
        const ran = await keepBusy(cell.callers, roundMs, ids).catch(failing(cell.what));
        cell.recorder.add(ran.calls, ran.seconds, ran.latencies);
      }
    }
    for (const cell of cells) for (const caller of cell.callers) caller.client.close();
    const [echo, get] = cells.map((cell) => cell.recorder.summary()) as [RoundSummary, RoundSummary];
    reads.set(clients, { echo, get });
  }

  const plainClient = await RawHttpClient.open(server.url);
  const taskClient = await RawHttpClient.open(server.url);
  // One of each untimed first: the sleeping tool's first call builds its schema.
  await sleepPlainly(plainClient, ids).catch(failing('plain sleep'));
  await sleepAsTask(taskClient, ids).catch(failing('task sleep'));
  for (let round = 0; round < rounds; round++) {
    const timePlain = async () => plain.push(await sleepPlainly(plainClient, ids).catch(failing('plain sleep')));
    const timeTask = async () => asTask.push(await sleepAsTask(taskClient, ids).catch(failing('task sleep')));
    if (round % 2 === 0) {
      await timePlain();
      await timeTask();
    } else {
      await timeTask();
      await timePlain();
    }
  }
  plainClient.close();
  taskClient.close();
} finally {
  server.stop();
}

const figure = (value: number) => Math.round(value).toLocaleString('en-US');
console.log(
  `Tasks over Streamable HTTP, ${modernProtocolVersion} era, one mcp-core server, ${rounds} rounds taken in turn, Node ${process.version}`,
);
console.log(`\na. Reading a completed task (${roundMs} ms rounds; req/s: median round)\n`);
console.log('| in flight | tools/call echo req/s | tasks/get req/s | tasks/get ÷ tools/call | p50 ms (call / get) |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const [clients, { echo, get }] of reads) {
  console.log(
    `| ${clients} | ${figure(echo.callsPerSecond)} | ${figure(get.callsPerSecond)} | ${(get.callsPerSecond / echo.callsPerSecond).toFixed(2)}× | ${echo.p50.toFixed(2)} / ${get.p50.toFixed(2)} |`,
  );
}

const plainMedian = median(plain);
const taskMedian = median(asTask.map((timing) => timing.total));
const overhead = taskMedian - plainMedian;
const percent = (overhead / plainMedian) * 100;
const lagMedian = median(asTask.map((timing) => timing.lag));
const withoutLag = median(asTask.map((timing) => timing.total - timing.lag)) - plainMedian;
const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
console.log(`\nb. A ${sleepMs} ms call, plain and as a task polled at pollIntervalMs (request to result, ms)\n`);
console.log('| called | median ms | range ms | polls (median) | last pollIntervalMs (median) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
console.log(`| plainly | ${plainMedian.toFixed(1)} | ${range(plain)} | — | — |`);
console.log(
  `| as a task | ${taskMedian.toFixed(1)} | ${range(asTask.map((timing) => timing.total))} | ${median(asTask.map((timing) => timing.polls))} | ${median(asTask.map((timing) => timing.lastInterval))} |`,
);
console.log(
  `\nA task adds ${overhead.toFixed(1)} ms (${percent.toFixed(1)} %; bar ≤ ${barPercent} %: ${percent <= barPercent ? 'met' : 'missed'}).`,
);
console.log(
  `Of that, waiting for the next poll: the result was read a median ${lagMedian.toFixed(0)} ms after the server recorded it; without that wait a task adds ${withoutLag.toFixed(1)} ms (${((withoutLag / plainMedian) * 100).toFixed(1)} %).`,
);
