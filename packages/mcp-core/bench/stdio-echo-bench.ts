/**
 * Echo over stdio, in both protocol eras: Toolshed's mcp-core against the
 * official SDK v1 and v2, driven by the same raw newline-JSON client in the
 * same run.
 *
 * - legacy era (2025-11-25): initialize, then tools/call; mcp-core, SDK v1
 *   and SDK v2 serveStdio;
 * - modern era (2026-07-28): no handshake, every request carries `_meta`;
 *   mcp-core and SDK v2 serveStdio (SDK v1 has no such era: n/a).
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *
 * Cold start: spawn to the first answer (the initialize result in the legacy
 * era, the server/discover result in the modern era), median of
 * BENCH_COLD_RUNS runs taken in turn.
 * Throughput: BENCH_CALLS calls per server with 32 in flight, cut into
 * BENCH_ROUNDS (default 5) rounds that alternate between the servers of an
 * era; calls/s is the median round, latency p50/p99 is over every call.
 * Memory: the server's resident set size after the load (from /proc).
 * mcp-core runs twice: as a bin ships (one bundled file, compile cache on) and
 * as a plain import of the package, so both figures are on the table.
 * Every answer is checked; an error or a wrongly shaped answer stops the run
 * with a non-zero exit. BENCH_ERAS=legacy|modern runs one era only;
 * BENCH_NODE_ARGS passes flags (say --cpu-prof) to the servers.
 */
import { existsSync } from 'node:fs';
import { buildBundledEcho } from './build-bundled-echo.ts';
import { checkEchoAnswer } from './check-answer.ts';
import { type Era, eraLabels, modernMeta, selectedEras } from './protocol-eras.ts';
import { RoundRecorder, type RoundSummary } from './round-summary.ts';
import { connectStdio, openEra, residentKib, type StdioConnection, stopStdio } from './stdio-client.ts';

interface BenchServer {
  name: string;
  script: string;
  eras: readonly Era[];
}

const servers: readonly BenchServer[] = [
  { name: 'mcp-core, as a bin ships', script: 'servers/toolshed-echo-bin.mjs', eras: ['legacy', 'modern'] },
  { name: 'mcp-core, plain import', script: 'servers/toolshed-echo-server.mjs', eras: ['legacy', 'modern'] },
  { name: 'SDK v1 McpServer', script: 'servers/sdk-v1-echo.mjs', eras: ['legacy'] },
  { name: 'SDK v2 serveStdio', script: 'servers/sdk-v2-echo.mjs', eras: ['legacy', 'modern'] },
];

const coldStartRuns = Number(process.env.BENCH_COLD_RUNS ?? 15);
const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const warmUpCalls = Math.min(2000, calls);
const inFlight = 32;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

await buildBundledEcho();

async function coldStart(script: string, era: Era): Promise<number> {
  const started = performance.now();
  const connection = connectStdio(script);
  await openEra(connection, era);
  const elapsed = performance.now() - started;
  await stopStdio(connection);
  return elapsed;
}

function failing(era: Era, server: BenchServer) {
  return (error: unknown): never => {
    throw new Error(`${server.name}, ${era} era: ${(error as Error).message}`, { cause: error });
  };
}

/** A server connected and opened in one era, ready to be called. */
interface Loaded {
  connection: StdioConnection;
  call(): Promise<void>;
}

async function prepare(script: string, era: Era): Promise<Loaded> {
  const connection = connectStdio(script);
  await openEra(connection, era);
  const params = JSON.stringify(
    era === 'legacy' ? { name: 'echo', arguments: { text } } : { name: 'echo', arguments: { text }, _meta: modernMeta },
  );
  const call = async () =>
    checkEchoAnswer(await connection.request('tools/call', params), era, text, `${era} tools/call`);
  for (let index = 0; index < warmUpCalls; index++) await call();
  return { connection, call };
}

/** One round: `count` calls with `inFlight` of them outstanding at any time. */
async function burst(loaded: Loaded, count: number): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  async function worker(): Promise<void> {
    while (issued < count) {
      issued++;
      const sent = performance.now();
      await loaded.call();
      latencies.push(performance.now() - sent);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { seconds: (performance.now() - started) / 1000, latencies };
}

interface Load extends RoundSummary {
  rssMib: number;
}

/**
 * Loads every server of an era in rounds taken in turn (all connected at
 * once, idle but for their turn), so that a burst of other work on the
 * machine falls on all of them alike.
 */
async function loadEra(era: Era, eraServers: readonly BenchServer[]): Promise<Map<BenchServer, Load>> {
  const prepared: { server: BenchServer; loaded: Loaded; recorder: RoundRecorder }[] = [];
  try {
    for (const server of eraServers) {
      const loaded = await prepare(server.script, era).catch(failing(era, server));
      prepared.push({ server, loaded, recorder: new RoundRecorder() });
    }
    const roundCalls = Math.ceil(calls / rounds);
    for (let round = 0; round < rounds; round++) {
      for (const { server, loaded, recorder } of prepared) {
        const ran = await burst(loaded, roundCalls).catch(failing(era, server));
        recorder.add(roundCalls, ran.seconds, ran.latencies);
      }
    }
    const loads = new Map<BenchServer, Load>();
    for (const { server, loaded, recorder } of prepared) {
      const rssMib = residentKib(loaded.connection.child.pid as number) / 1024;
      loads.set(server, { ...recorder.summary(), rssMib });
    }
    return loads;
  } finally {
    await Promise.all(prepared.map(({ loaded }) => stopStdio(loaded.connection)));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const runEras = selectedEras();
const runs = runEras.flatMap((era) =>
  servers.filter((server) => server.eras.includes(era)).map((server) => ({ era, server })),
);
const runKey = (era: Era, server: BenchServer) => `${era}|${server.name}`;

console.log(
  `stdio echo, node ${process.version}, ${calls} calls with ${inFlight} in flight in ${rounds} rounds taken in turn (calls/s: median round), ${coldStartRuns} cold starts each`,
);
const starts = new Map<string, number[]>(runs.map(({ era, server }) => [runKey(era, server), []]));
for (let run = 0; run < coldStartRuns; run++) {
  // In turn, so that machine noise falls on all of them alike.
  for (const { era, server } of runs) {
    starts.get(runKey(era, server))?.push(await coldStart(server.script, era).catch(failing(era, server)));
  }
}
const results = new Map<string, Load & { coldStartMs: number }>();
for (const era of runEras) {
  const loads = await loadEra(
    era,
    servers.filter((server) => server.eras.includes(era)),
  );
  for (const [server, measured] of loads) {
    results.set(runKey(era, server), { coldStartMs: median(starts.get(runKey(era, server)) ?? []), ...measured });
  }
}

const misses: string[] = [];
for (const era of runEras) {
  const [ours] = servers;
  const our = ours === undefined ? undefined : results.get(runKey(era, ours));
  if (our === undefined) continue;
  console.log(`\n${eraLabels[era]}\n`);
  console.log('| server | cold start ms (median) | calls/s | p50 ms | p99 ms | RSS MiB after load |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const server of servers) {
    const result = results.get(runKey(era, server));
    const figures =
      result === undefined
        ? ['n/a (no 2026-07-28 era)', 'n/a', 'n/a', 'n/a', 'n/a']
        : [
            result.coldStartMs.toFixed(1),
            result.callsPerSecond.toFixed(0),
            result.p50.toFixed(2),
            result.p99.toFixed(2),
            result.rssMib.toFixed(1),
          ];
    console.log(`| ${server.name} | ${figures.join(' | ')} |`);
  }
  console.log(`\n| ${ours?.name} vs | calls/s (bar ≥ 2×) | cold start (bar ≤ 0.5×) | RSS (bar ≤ 0.6×) |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const server of servers.slice(2)) {
    const other = results.get(runKey(era, server));
    if (other === undefined) {
      console.log(`| ${server.name} | n/a | n/a | n/a |`);
      continue;
    }
    const throughput = our.callsPerSecond / other.callsPerSecond;
    const cold = our.coldStartMs / other.coldStartMs;
    const rss = our.rssMib / other.rssMib;
    if (server.name.startsWith('SDK v2') && throughput < 2) misses.push(`${era}: ${throughput.toFixed(2)}×`);
    const mark = (ok: boolean) => (ok ? '' : ' ✗');
    console.log(
      `| ${server.name} | ${throughput.toFixed(2)}×${mark(throughput >= 2)} | ${cold.toFixed(2)}×${mark(cold <= 0.5)} | ${rss.toFixed(2)}×${mark(rss <= 0.6)} |`,
    );
  }
}
console.log(
  misses.length === 0
    ? '\nmcp-core ≥ 2× SDK v2 calls/s in every era.'
    : `\nmcp-core below 2× SDK v2 calls/s: ${misses.join('; ')}`,
);
