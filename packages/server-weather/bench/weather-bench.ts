/**
 * Ours against the weather server most people write — the official SDK's
 * McpServer with a tool that calls fetch() for every request, no cache — on
 * the same local upstream (in its own process), in one run:
 *
 *   - 1,000 sequential get_current_weather calls for one place (ours answers
 *     from its cache after the first);
 *   - bursts of 100 concurrent get_current_weather calls for 100 new points
 *     (nothing cached), with the raw undici requests as the floor;
 *
 * reporting p50/p99 latency and the TCP connections each opened upstream.
 * Both servers are connected the same way — an in-memory transport pair and
 * nothing between it and the client — so neither pays for the other's harness.
 *
 * Each subject's bursts run in processes of their own (burst-rounds.ts),
 * taken in turns — ours, anchor, anchor, ours … — so a spell of load on the
 * machine falls on both alike. In one shared process the garbage one server
 * leaves is collected during the other's rounds (fetch allocates about twice
 * what ours does per call), and whichever path had run more often was the
 * one compiled by the optimizing tiers; each process warms its own path
 * with the same number of bursts before it measures.
 *
 *   pnpm --filter @toolshed/server-weather bench
 *
 * BENCH_TURNS sets the burst processes per subject (6);
 * BENCH_MAX_CONNECTIONS gives ours another connection cap than its default.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { weatherServerOptions } from '../src/weather-server-options.ts';
import {
  burstPoint,
  burstShape,
  callOnce,
  currentVariables,
  type MeasuredBurst,
  type Subject,
  type SubjectName,
  startSubject,
} from './bench-subjects.ts';

const cachedCalls = 1000;
/** Burst processes per subject; each measures `burstShape.measuredRounds` bursts. */
const turns = Number(process.env.BENCH_TURNS ?? 6);

const child = spawn(process.execPath, [new URL('./upstream-process.ts', import.meta.url).pathname], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const upstreamUrl = String((await lines.next()).value);

async function upstreamStats(): Promise<{ connections: number; requests: number }> {
  child.stdin.write('stats\n');
  return JSON.parse(String((await lines.next()).value)) as { connections: number; requests: number };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((left, right) => left - right),
    0.5,
  );

interface Timing {
  p50: number;
  p99: number;
  /** The median round's wall time (for sequential calls, the whole run). */
  totalMs: number;
  /** The median round's CPU time in the measuring process (client, server and undici; not the upstream's). */
  cpuMs: number;
  connections: number;
  requests: number;
}

function summary(bursts: readonly MeasuredBurst[], connections: number, requests: number): Timing {
  const sorted = bursts.flatMap((measured) => measured.latencies).sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    totalMs: median(bursts.map((measured) => measured.wallMs)),
    cpuMs: median(bursts.map((measured) => measured.cpuMs)),
    connections,
    requests,
  };
}

async function sequential(subject: Subject): Promise<Timing> {
  // Warm both paths (JIT, first connection) before counting.
  for (let index = 0; index < 50; index++) await callOnce(subject, 52.52, 13.405);
  const before = await upstreamStats();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const latencies: number[] = [];
  for (let index = 0; index < cachedCalls; index++) latencies.push(await callOnce(subject, 52.52, 13.405));
  const totalMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = await upstreamStats();
  const measured = { latencies, wallMs: totalMs, cpuMs: (used.user + used.system) / 1000 };
  return summary([measured], after.connections - before.connections, after.requests);
}

let nextRound = 0;

/** One burst process of a subject: its measured bursts. Rounds are numbered across processes, so no point repeats. */
async function burstProcess(name: SubjectName): Promise<MeasuredBurst[]> {
  const firstRound = nextRound;
  nextRound += burstShape.warmUpRounds + burstShape.measuredRounds;
  const script = new URL('./burst-rounds.ts', import.meta.url).pathname;
  const burster = spawn(process.execPath, [script, name, upstreamUrl, String(firstRound)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  burster.stdout.setEncoding('utf8');
  burster.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => burster.on('close', resolve));
  if (code !== 0) throw new Error(`the ${name} burst process exited with ${code}`);
  return JSON.parse(output) as MeasuredBurst[];
}

/** Both subjects' burst processes in turns (A B, B A, A B …); connections opened are counted per subject. */
async function burstsInTurns(names: readonly SubjectName[]): Promise<Timing[]> {
  const bursts = names.map((): MeasuredBurst[] => []);
  const connections = names.map(() => 0);
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 === 0 ? [...names.keys()] : [...names.keys()].reverse();
    for (const index of order) {
      const before = await upstreamStats();
      bursts[index]?.push(...(await burstProcess(names[index] as SubjectName)));
      const after = await upstreamStats();
      connections[index] = (connections[index] ?? 0) + after.connections - before.connections;
    }
  }
  return names.map((_, index) => summary(bursts[index] ?? [], connections[index] ?? 0, 0));
}

async function rawUndici(connections: number | null): Promise<Timing> {
  const agent = new Agent({ connections });
  const before = await upstreamStats();
  const burst = () =>
    Promise.all(
      Array.from({ length: burstShape.callsPerBurst }, async (_, index) => {
        const { latitude, longitude } = burstPoint(nextRound, index);
        const started = performance.now();
        const response = await request(
          `${upstreamUrl}/v1/forecast?latitude=${latitude}&longitude=${longitude}&current=${currentVariables}&timezone=auto&timeformat=unixtime`,
          { dispatcher: agent },
        );
        await response.body.json();
        return performance.now() - started;
      }),
    );
  const bursts: MeasuredBurst[] = [];
  for (let index = 0; index < burstShape.warmUpRounds + burstShape.measuredRounds; index++) {
    nextRound++;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const latencies = await burst();
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (index >= burstShape.warmUpRounds) bursts.push({ latencies, wallMs, cpuMs: (used.user + used.system) / 1000 });
  }
  const after = await upstreamStats();
  await agent.close();
  return summary(bursts, after.connections - before.connections, 0);
}

const ours = await startSubject('ours', upstreamUrl);
const anchor = await startSubject('anchor', upstreamUrl);
const oursCached = await sequential(ours);
const anchorCached = await sequential(anchor);
await ours.close();
await anchor.close();
const [oursBursts, anchorBursts] = (await burstsInTurns(['ours', 'anchor'])) as [Timing, Timing];
const ourCap = Number(process.env.BENCH_MAX_CONNECTIONS ?? weatherServerOptions.parse({}).limits.maxConnections);
const raw = await rawUndici(ourCap);
const rawUnlimited = await rawUndici(null);
child.stdin.end();

const ms = (value: number) => value.toFixed(3);
const ratio = (theirs: number, mine: number) =>
  mine <= theirs ? `${(theirs / mine).toFixed(2)}x faster` : `${(mine / theirs).toFixed(2)}x slower`;
const { callsPerBurst, measuredRounds } = burstShape;
const rounds = turns * measuredRounds;

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(
  `\nNode ${process.version}, ${cachedCalls} sequential calls / bursts of ${callsPerBurst} concurrent calls (${rounds} measured each, in ${turns} processes each), in memory; load average ${load}\n`,
);
console.log('| measure | SDK + fetch, no cache | ours | ours is |');
console.log('|---|---:|---:|---|');
const row = (label: string, theirs: number, mine: number) =>
  console.log(`| ${label} | ${ms(theirs)} | ${ms(mine)} | ${ratio(theirs, mine)} |`);
row(`${cachedCalls} calls, one place: p50 ms`, anchorCached.p50, oursCached.p50);
row(`${cachedCalls} calls, one place: p99 ms`, anchorCached.p99, oursCached.p99);
console.log(
  `| ${cachedCalls} calls, one place: upstream requests | ${anchorCached.requests} | ${oursCached.requests} | |`,
);
row(`${callsPerBurst} concurrent uncached: p50 ms`, anchorBursts.p50, oursBursts.p50);
row(`${callsPerBurst} concurrent uncached: p99 ms`, anchorBursts.p99, oursBursts.p99);
row(`${callsPerBurst} concurrent uncached: median round, all done ms`, anchorBursts.totalMs, oursBursts.totalMs);
row(`${callsPerBurst} concurrent uncached: median round, CPU ms`, anchorBursts.cpuMs, oursBursts.cpuMs);
console.log(
  `| ${callsPerBurst} concurrent uncached: upstream connections opened (${turns} processes) | ${anchorBursts.connections} | ${oursBursts.connections} | |`,
);
console.log(
  `\nFloor: the same ${callsPerBurst} requests straight through undici (${ourCap} connections, our cap): p50 ${ms(raw.p50)} ms, p99 ${ms(raw.p99)} ms, median round ${ms(raw.totalMs)} ms, ${raw.connections} connections.`,
);
console.log(
  `Floor without a connection cap (as fetch runs): p50 ${ms(rawUnlimited.p50)} ms, p99 ${ms(rawUnlimited.p99)} ms, median round ${ms(rawUnlimited.totalMs)} ms.`,
);
