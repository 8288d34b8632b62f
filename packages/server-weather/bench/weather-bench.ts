/**
 * Ours against the weather server most people write — the official SDK's
 * McpServer with a tool that calls fetch() for every request, no cache — on
 * the same local upstream (in its own process), in one run:
 *
 *   - 1,000 sequential get_current_weather calls for one place (ours answers
 *     from its cache after the first);
 *   - 100 concurrent get_current_weather calls for 100 different points
 *     (nothing cached), one warm-up round each then `measuredRounds` each,
 *     ours and the anchor taking turns (first one, then the other), with the
 *     raw undici requests as the floor;
 *
 * reporting p50/p99 latency and the TCP connections each opened upstream.
 * Both servers are connected the same way — an in-memory transport pair and
 * nothing between it and the client — so neither pays for the other's harness
 * (the test kit's recording wrapper clones every message).
 *
 *   pnpm --filter @toolshed/server-weather bench
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createInMemoryTransportPair } from '@toolshed/mcp-core';
import { Agent, request } from 'undici';
import * as z from 'zod';
import { createWeatherServer } from '../src/index.ts';

const cachedCalls = 1000;
const concurrentCalls = 100;

const child = spawn(process.execPath, [new URL('./upstream-process.ts', import.meta.url).pathname], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const upstreamUrl = String((await lines.next()).value);

async function upstreamStats(): Promise<{ connections: number; requests: number }> {
  child.stdin.write('stats\n');
  return JSON.parse(String((await lines.next()).value)) as { connections: number; requests: number };
}

const currentVariables =
  'temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,precipitation,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,is_day';

/** The weather server as it is usually written: fetch per call, the text of the answer back. */
function createAnchorServer(): SdkMcpServer {
  const server = new SdkMcpServer({ name: 'anchor-weather', version: '1.0.0' });
  server.registerTool(
    'get_current_weather',
    {
      description: 'Current weather at a point',
      inputSchema: { latitude: z.number(), longitude: z.number() },
    },
    async ({ latitude, longitude }) => {
      const url = `${upstreamUrl}/v1/forecast?latitude=${latitude}&longitude=${longitude}&current=${currentVariables}&timezone=auto&timeformat=unixtime`;
      const response = await fetch(url, { headers: { 'user-agent': 'anchor-weather/1.0' } });
      const data = (await response.json()) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(data.current) }] };
    },
  );
  return server;
}

interface Subject {
  name: string;
  client: Client;
  close(): Promise<void>;
}

async function startOurs(): Promise<Subject> {
  const server = createWeatherServer({
    upstreams: { forecastUrl: upstreamUrl, geocodingUrl: upstreamUrl, airQualityUrl: upstreamUrl, nwsUrl: upstreamUrl },
    contact: 'bench@example.com',
  });
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  // The pair's client end is shaped like the SDK's Transport but typed with mcp-core's own message type.
  await client.connect(clientSide as Parameters<Client['connect']>[0]);
  return {
    name: 'ours',
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

async function startAnchor(): Promise<Subject> {
  const server = createAnchorServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return {
    name: 'SDK + fetch',
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

interface Timing {
  p50: number;
  p99: number;
  totalMs: number;
  /** The median round's CPU time in this process (client, server and undici; not the upstream's). */
  cpuMs: number;
  connections: number;
  requests: number;
}

async function timed(run: () => Promise<number[]>): Promise<Timing> {
  const before = await upstreamStats();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const latencies = await run();
  const totalMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = await upstreamStats();
  const sorted = [...latencies].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    totalMs,
    cpuMs: (used.user + used.system) / 1000,
    connections: after.connections - before.connections,
    requests: after.requests,
  };
}

async function callOnce(subject: Subject, latitude: number, longitude: number): Promise<number> {
  const started = performance.now();
  const result = await subject.client.callTool({ name: 'get_current_weather', arguments: { latitude, longitude } });
  if (result.isError) throw new Error(`${subject.name}: ${JSON.stringify(result.content)}`);
  return performance.now() - started;
}

async function sequential(subject: Subject): Promise<Timing> {
  // Warm both paths (JIT, first connection) before counting.
  for (let index = 0; index < 50; index++) await callOnce(subject, 52.52, 13.405);
  return timed(async () => {
    const latencies: number[] = [];
    for (let index = 0; index < cachedCalls; index++) latencies.push(await callOnce(subject, 52.52, 13.405));
    return latencies;
  });
}

const measuredRounds = 15;
let round = 0;

interface Burst {
  latencies: number[];
  totalMs: number;
  cpuMs: number;
}

/**
 * A burst's latencies, its wall time and its CPU time. On a busy machine the
 * CPU time moves far less than the wall time: it shows the work per burst.
 */
async function burst(runRound: (round: number) => Promise<number[]>): Promise<Burst> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const latencies = await runRound(++round);
  const totalMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { latencies, totalMs, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((left, right) => left - right),
    0.5,
  );

function summary(bursts: readonly Burst[], connections: number, requests: number): Timing {
  const sorted = bursts.flatMap((measured) => measured.latencies).sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    totalMs: median(bursts.map((measured) => measured.totalMs)),
    cpuMs: median(bursts.map((measured) => measured.cpuMs)),
    connections,
    requests,
  };
}

/**
 * One unmeasured round to warm the uncached path, then `measuredRounds`
 * rounds of `concurrentCalls` at once, each at new points: latencies pooled
 * over all rounds, the median round's wall time, connections opened in all
 * of them.
 */
async function rounds(runRound: (round: number) => Promise<number[]>): Promise<Timing> {
  const before = await upstreamStats();
  await runRound(++round);
  const bursts: Burst[] = [];
  for (let index = 0; index < measuredRounds; index++) bursts.push(await burst(runRound));
  const after = await upstreamStats();
  return summary(bursts, after.connections - before.connections, after.requests);
}

function concurrentRound(subject: Subject): (at: number) => Promise<number[]> {
  return (at) =>
    Promise.all(
      Array.from({ length: concurrentCalls }, (_, index) => callOnce(subject, 10 + at / 10 + index / 1000, -40)),
    );
}

/**
 * The subjects' rounds taken in turns — A B, B A, A B … — so a spell of load
 * from elsewhere on the machine falls on both alike; each round's new
 * connections are counted for the subject that made them.
 */
async function concurrentInTurns(subjects: readonly Subject[]): Promise<Timing[]> {
  const bursts = subjects.map((): Burst[] => []);
  const connections = subjects.map(() => 0);
  for (let turn = 0; turn <= measuredRounds; turn++) {
    const order = turn % 2 === 0 ? subjects.keys() : [...subjects.keys()].reverse();
    for (const index of order) {
      const subject = subjects[index] as Subject;
      const before = await upstreamStats();
      const measured = await burst(concurrentRound(subject));
      const after = await upstreamStats();
      connections[index] = (connections[index] ?? 0) + after.connections - before.connections;
      // Turn 0 warms the uncached path; its connections still count.
      if (turn === 0) continue;
      bursts[index]?.push(measured);
    }
  }
  return subjects.map((_, index) => summary(bursts[index] ?? [], connections[index] ?? 0, 0));
}

async function rawUndici(connections: number | null): Promise<Timing> {
  const agent = new Agent({ connections });
  const timing = await rounds((at) =>
    Promise.all(
      Array.from({ length: concurrentCalls }, async (_, index) => {
        const started = performance.now();
        const response = await request(
          `${upstreamUrl}/v1/forecast?latitude=${10 + at / 10 + index / 1000}&longitude=-40&current=${currentVariables}&timezone=auto&timeformat=unixtime`,
          { dispatcher: agent },
        );
        await response.body.json();
        return performance.now() - started;
      }),
    ),
  );
  await agent.close();
  return timing;
}

const ours = await startOurs();
const anchor = await startAnchor();
// Interleaved, so drift in the machine's speed falls on both alike.
const oursCached = await sequential(ours);
const anchorCached = await sequential(anchor);
const [oursConcurrent, anchorConcurrent] = (await concurrentInTurns([ours, anchor])) as [Timing, Timing];
const raw = await rawUndici(6);
const rawUnlimited = await rawUndici(null);
await ours.close();
await anchor.close();
child.stdin.end();

const ms = (value: number) => value.toFixed(3);
const ratio = (theirs: number, mine: number) =>
  mine <= theirs ? `${(theirs / mine).toFixed(1)}x faster` : `${(mine / theirs).toFixed(1)}x slower`;

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(
  `\nNode ${process.version}, ${cachedCalls} sequential calls / ${concurrentCalls} concurrent calls, in memory; load average ${load}\n`,
);
console.log('| measure | SDK + fetch, no cache | ours | ours is |');
console.log('|---|---:|---:|---|');
console.log(
  `| ${cachedCalls} calls, one place: p50 ms | ${ms(anchorCached.p50)} | ${ms(oursCached.p50)} | ${ratio(anchorCached.p50, oursCached.p50)} |`,
);
console.log(
  `| ${cachedCalls} calls, one place: p99 ms | ${ms(anchorCached.p99)} | ${ms(oursCached.p99)} | ${ratio(anchorCached.p99, oursCached.p99)} |`,
);
console.log(
  `| ${cachedCalls} calls, one place: upstream requests | ${anchorCached.requests} | ${oursCached.requests} | |`,
);
console.log(
  `| ${concurrentCalls} concurrent uncached: p50 ms | ${ms(anchorConcurrent.p50)} | ${ms(oursConcurrent.p50)} | ${ratio(anchorConcurrent.p50, oursConcurrent.p50)} |`,
);
console.log(
  `| ${concurrentCalls} concurrent uncached: p99 ms | ${ms(anchorConcurrent.p99)} | ${ms(oursConcurrent.p99)} | ${ratio(anchorConcurrent.p99, oursConcurrent.p99)} |`,
);
console.log(
  `| ${concurrentCalls} concurrent uncached: median round, all done ms | ${ms(anchorConcurrent.totalMs)} | ${ms(oursConcurrent.totalMs)} | ${ratio(anchorConcurrent.totalMs, oursConcurrent.totalMs)} |`,
);
console.log(
  `| ${concurrentCalls} concurrent uncached: median round, CPU ms of the bench process | ${ms(anchorConcurrent.cpuMs)} | ${ms(oursConcurrent.cpuMs)} | ${ratio(anchorConcurrent.cpuMs, oursConcurrent.cpuMs)} |`,
);
console.log(
  `| ${concurrentCalls} concurrent uncached: upstream connections opened (${measuredRounds + 1} rounds) | ${anchorConcurrent.connections} | ${oursConcurrent.connections} | |`,
);
console.log(
  `\nFloor: the same ${concurrentCalls} requests straight through undici (6 connections): p50 ${ms(raw.p50)} ms, p99 ${ms(raw.p99)} ms, median round ${ms(raw.totalMs)} ms, ${raw.connections} connections.`,
);
console.log(
  `Floor without a connection cap (as fetch runs): p50 ${ms(rawUnlimited.p50)} ms, p99 ${ms(rawUnlimited.p99)} ms, median round ${ms(rawUnlimited.totalMs)} ms.`,
);
