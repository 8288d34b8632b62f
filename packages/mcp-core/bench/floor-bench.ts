/**
 * mcp-core against Node's own floor over stdio, in one run: a script that
 * answers the echo bench from constant strings (no library at all) beside the
 * echo server on the built package, imported plainly, with its tool's input
 * given as a JSON Schema (no zod loaded) and as a zod schema. A fourth
 * server, the floor with zod imported and the tool's schema built, shows
 * zod's own share of a start.
 *
 *   node bench/floor-bench.ts       (after pnpm build; part of pnpm bench)
 *
 * Cold start: spawn to the answer of the tool call, after initialize and
 * tools/list each answered in turn (server/discover in the 2026 era);
 * BENCH_COLD_RUNS (default 21) starts of each server, taken in turn. Wall
 * time, and the server's CPU time until that answer (every thread).
 * Throughput: BENCH_CALLS calls per server, 32 in flight, in BENCH_ROUNDS
 * rounds (default 10) taken in turn; calls/s is the median round, with the
 * slowest and fastest round, and the server's CPU time per call in each round.
 * Memory: the server's resident set size after the load.
 * BENCH_ERAS=legacy|modern picks the era (default legacy).
 */
import { existsSync, readFileSync } from 'node:fs';
import { checkAnswer, checkEchoAnswer } from './check-answer.ts';
import { type Era, eraLabels, modernMeta } from './protocol-eras.ts';
import { connectStdio, cpuMs, openEra, residentKib, type StdioConnection, stopStdio } from './stdio-client.ts';

interface FloorServer {
  name: string;
  script: string;
}

const floor: FloorServer = { name: 'Node floor: constant strings', script: 'servers/node-floor-echo.mjs' };
const servers: readonly FloorServer[] = [
  floor,
  { name: 'mcp-core, plain import, JSON Schema input', script: 'servers/toolshed-json-schema-echo.mjs' },
  { name: 'mcp-core, plain import, zod input', script: 'servers/toolshed-echo-server.mjs' },
  { name: 'Node floor + zod imported, schema built', script: 'servers/node-floor-zod-echo.mjs' },
];
const bars = { coldStart: 2.0, callsPerSecond: 0.8, rss: 1.2 };

const era: Era = process.env.BENCH_ERAS === 'modern' ? 'modern' : 'legacy';
const coldStartRuns = Number(process.env.BENCH_COLD_RUNS ?? 21);
const calls = Number(process.env.BENCH_CALLS ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const warmUpCalls = Math.min(5000, calls);
const inFlight = 32;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);
const callParams = JSON.stringify(
  era === 'legacy' ? { name: 'echo', arguments: { text } } : { name: 'echo', arguments: { text }, _meta: modernMeta },
);
const listParams = JSON.stringify(era === 'legacy' ? {} : { _meta: modernMeta });

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

async function echo(connection: StdioConnection): Promise<void> {
  checkEchoAnswer(await connection.request('tools/call', callParams), era, text, `${era} tools/call`);
}

/** What a client does first: open the era, list the tools, call one. */
async function firstExchange(connection: StdioConnection): Promise<void> {
  await openEra(connection, era);
  const listed = checkAnswer(await connection.request('tools/list', listParams), era, 'tools/list');
  if (!Array.isArray(listed.tools) || listed.tools.length !== 1) throw new Error('tools/list: not the one echo tool');
  await echo(connection);
}

async function coldStart(server: FloorServer): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const connection = connectStdio(server.script);
  await firstExchange(connection);
  const wallMs = performance.now() - started;
  const used = cpuMs(connection.child.pid as number);
  await stopStdio(connection);
  return { wallMs, cpuMs: used };
}

/** One round: `count` calls with `inFlight` of them outstanding at any time. */
async function burst(connection: StdioConnection, count: number): Promise<{ perSecond: number; cpuUs: number }> {
  const pid = connection.child.pid as number;
  let issued = 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  async function worker(): Promise<void> {
    while (issued < count) {
      issued++;
      await echo(connection);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, cpuUs: ((cpuMs(pid) - cpuBefore) * 1000) / count };
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: readonly number[], at: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(at * values.length))] as number;
const median = (values: readonly number[]) => quantile(values, 0.5);

interface Figures {
  wallMs: number[];
  startCpuMs: number[];
  perSecond: number[];
  cpuUs: number[];
  rssMib: number;
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAtStart = loadAverage();
console.log(
  `stdio echo against Node's floor, ${eraLabels[era]}, node ${process.version}; ${coldStartRuns} cold starts and ${calls} calls (${inFlight} in flight, ${rounds} rounds) per server, taken in turn; load average ${loadAtStart}`,
);

const figures = new Map<FloorServer, Figures>(
  servers.map((server) => [server, { wallMs: [], startCpuMs: [], perSecond: [], cpuUs: [], rssMib: Number.NaN }]),
);
const figuresOf = (server: FloorServer) => figures.get(server) as Figures;

for (let run = 0; run < coldStartRuns; run++) {
  // In turn, so that machine noise falls on all of them alike.
  for (const server of servers) {
    const started = await coldStart(server);
    figuresOf(server).wallMs.push(started.wallMs);
    figuresOf(server).startCpuMs.push(started.cpuMs);
  }
}

const connections = new Map<FloorServer, StdioConnection>();
try {
  for (const server of servers) {
    const connection = connectStdio(server.script);
    connections.set(server, connection);
    await firstExchange(connection);
    for (let index = 0; index < warmUpCalls; index++) await echo(connection);
  }
  const roundCalls = Math.ceil(calls / rounds);
  for (let round = 0; round < rounds; round++) {
    for (const [server, connection] of connections) {
      const ran = await burst(connection, roundCalls);
      figuresOf(server).perSecond.push(ran.perSecond);
      figuresOf(server).cpuUs.push(ran.cpuUs);
    }
  }
  for (const [server, connection] of connections) {
    figuresOf(server).rssMib = residentKib(connection.child.pid as number) / 1024;
  }
} finally {
  await Promise.all([...connections.values()].map(stopStdio));
}

const spread = (values: readonly number[], digits: number, low = 0, high = 1) =>
  `${quantile(values, low).toFixed(digits)}–${quantile(values, high).toFixed(digits)}`;
console.log(
  '\n| server | cold start ms (p25–p75) | start CPU ms (p25–p75) | calls/s (slowest–fastest round) | CPU µs per call | RSS MiB |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const server of servers) {
  const measured = figuresOf(server);
  console.log(
    `| ${server.name} | ${median(measured.wallMs).toFixed(1)} (${spread(measured.wallMs, 1, 0.25, 0.75)}) | ${median(measured.startCpuMs).toFixed(1)} (${spread(measured.startCpuMs, 1, 0.25, 0.75)}) | ${median(measured.perSecond).toFixed(0)} (${spread(measured.perSecond, 0)}) | ${median(measured.cpuUs).toFixed(1)} | ${measured.rssMib.toFixed(1)} |`,
  );
}

const base = figuresOf(floor);
const mark = (ok: boolean) => (ok ? '' : ' ✗');
console.log(
  `\n| ÷ the floor | cold start (bar ≤ ${bars.coldStart}×) | start CPU | calls/s (bar ≥ ${bars.callsPerSecond}×) | CPU per call | RSS (bar ≤ ${bars.rss}×) |`,
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const server of servers.slice(1)) {
  const measured = figuresOf(server);
  const cold = median(measured.wallMs) / median(base.wallMs);
  const startCpu = median(measured.startCpuMs) / median(base.startCpuMs);
  const rate = median(measured.perSecond) / median(base.perSecond);
  const cpu = median(measured.cpuUs) / median(base.cpuUs);
  const rss = measured.rssMib / base.rssMib;
  console.log(
    `| ${server.name} | ${cold.toFixed(2)}×${mark(cold <= bars.coldStart)} | ${startCpu.toFixed(2)}× | ${rate.toFixed(2)}×${mark(rate >= bars.callsPerSecond)} | ${cpu.toFixed(2)}× | ${rss.toFixed(2)}×${mark(rss <= bars.rss)} |`,
  );
}
console.log(`\nload average at the start ${loadAtStart}, at the end ${loadAverage()}`);
