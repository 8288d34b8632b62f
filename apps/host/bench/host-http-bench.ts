/**
 * Throughput over Streamable HTTP: the filesystem server served directly,
 * and the host serving the filesystem package three ways — with its audit
 * record off (nothing written to the state store per call), on the embedded
 * SQLite store (as it ships), and on a PostgreSQL store (as replicas share
 * one) — each its own process on 127.0.0.1, from the built packages (dist/,
 * as npm installs them), in one run. PostgreSQL is Debian's, started by the
 * bench on loopback; without it that server is left out.
 *
 *   pnpm --filter @toolshed/host... build && pnpm --filter @toolshed/host bench
 *
 * For each protocol era (2025 sessions opened with initialize; 2026-07-28
 * stateless requests) and each load (8 and 64 clients, one call in flight
 * each, one keep-alive socket each): tools/call `read_text_file` of a small
 * file per second, over BENCH_HTTP_SECONDS (default 6) per server cut into
 * BENCH_HTTP_ROUNDS (default 12) rounds taken in turn, direct then host. A
 * server's rate is its median round; a ratio is the median of the rounds'
 * ratios (each round of one server over the same round of the other), so a
 * burst of other work on the machine weighs on both sides of a ratio alike,
 * shown with the quartiles of the rounds' ratios as its spread. With
 * BENCH_HOST_UNCAPPED=1 the host on its embedded store runs a second time
 * with V8's young generation left to grow to V8's own maximum, to show what
 * holding it at 16 MiB a semi-space costs and saves.
 * The CPU time each server process spent per call (from /proc, where there
 * is one) is shown too, and beside each ratio of calls/s the ratio of CPU
 * per call (over the whole cell, with the middle half of the rounds' ratios
 * as its spread): it depends far less on what else the machine is doing,
 * and when the machine is full and every process gets an equal share of
 * it, calls/s follow its inverse. The load average is read at every round
 * and shown as its range. Every answer is checked. After the last cell
 * each server's memory is shown side by side: its resident set (from /proc), V8's heap used,
 * external and array-buffer memory as the run left them, and the same after
 * a full garbage collection (bench/report-memory.ts, loaded into each
 * server), which tells memory held from garbage not yet collected; with
 * BENCH_HEAP_SNAPSHOTS=<directory> each server also writes a heap snapshot
 * there. Exits non-zero when a bar is missed: the host on its embedded store
 * ≥ 0.8× the direct server's calls/s and ≥ 0.8× the host with no store
 * writes, the PostgreSQL store ≥ 0.8× the embedded one at 64 clients, and
 * the host on its embedded store ≤ 1.5× the direct server's resident set.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SpawnedHttpServer, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from '@toolshed/state/testing';
import { keepBusy } from '../../../packages/mcp-core/bench/busy-callers.ts';
import {
  type Era,
  eraLabels,
  initializeParams,
  legacyProtocolVersion,
  modernHeaders,
  modernMeta,
  selectedEras,
} from '../../../packages/mcp-core/bench/protocol-eras.ts';
import { RawHttpClient } from '../../../packages/mcp-core/bench/raw-http-client.ts';
import { RoundRecorder, type RoundSummary } from '../../../packages/mcp-core/bench/round-summary.ts';

const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 12);
const loads = [8, 64] as const;
const bar = 0.8;
/** The host's resident set after the run, at most this many times the direct server's. */
const memoryBar = 1.5;
const warmUpMs = 1000;
const marker = 'A line of notes for the benchmark.';

const packages = new URL('../../../packages/', import.meta.url);
const builtFiles = [
  new URL('../dist/toolshed.js', import.meta.url),
  new URL('server-filesystem/dist/toolshed-filesystem.js', packages),
  new URL('mcp-core/dist/index.js', packages),
  new URL('guards/dist/index.js', packages),
  new URL('state/dist/index.js', packages),
];
const missing = builtFiles.filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(
    `Build first: pnpm --filter @toolshed/host... build (missing ${missing.map((file) => file.pathname).join(', ')})`,
  );
  process.exit(2);
}

const directory = mkdtempSync(join(tmpdir(), 'toolshed-host-http-bench-'));
const workspace = join(directory, 'workspace');
mkdirSync(workspace);
const file = join(workspace, 'notes.md');
writeFileSync(file, `${marker}\n`.repeat(10));
const configOf = (name: string, audit: boolean) => {
  const path = join(directory, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      toolshed: { audit: audit ? {} : { enabled: false } },
      mcpServers: { '@toolshed/server-filesystem': { directories: [workspace] } },
    }),
  );
  return path;
};
const postgres: PostgresStateServer | undefined = existsSync(postgresStateService.binary)
  ? await startPostgresStateServer()
  : undefined;
if (postgres === undefined)
  console.error(`${postgresStateService.binary} is missing: the PostgreSQL store is left out`);
const host = new URL('../bin/toolshed.js', import.meta.url).pathname;

const memoryDirectory = process.env.BENCH_HEAP_SNAPSHOTS ?? join(directory, 'memory');
mkdirSync(memoryDirectory, { recursive: true });
const useBuilt = [
  '--import',
  new URL('./use-built-packages.ts', import.meta.url).pathname,
  '--import',
  new URL('./report-memory.ts', import.meta.url).pathname,
];
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const direct = 'filesystem directly';
const noStore = 'host, audit off';
const embedded = 'host, embedded store';
const shared = 'host, PostgreSQL store';
const uncapped = 'host, embedded store, V8 young generation uncapped';
const targets: { name: string; tool: string; args: string[]; env?: Record<string, string>; nodeArgs?: string[] }[] = [
  {
    name: direct,
    tool: 'read_text_file',
    args: [new URL('server-filesystem/bin/toolshed-filesystem.js', packages).pathname, workspace],
  },
  {
    name: noStore,
    tool: 'filesystem_read_text_file',
    args: [host, 'serve', '--config', configOf('no-store', false), '--state', join(directory, 'no-store.db')],
  },
  {
    name: embedded,
    tool: 'filesystem_read_text_file',
    args: [host, 'serve', '--config', configOf('embedded', true), '--state', join(directory, 'embedded.db')],
  },
  ...(postgres === undefined
    ? []
    : [
        {
          name: shared,
          tool: 'filesystem_read_text_file',
          args: [host, 'serve', '--config', configOf('shared', true), '--state', postgres.url],
          env: postgres.env,
        },
      ]),
  // With BENCH_HOST_UNCAPPED=1: the host as it was before it held its young generation at 16 MiB a semi-space
  // (a heap-sizing flag of the operator's own makes the host leave V8 alone; 64 MiB is V8's own maximum here).
  ...(process.env.BENCH_HOST_UNCAPPED === '1'
    ? [
        {
          name: uncapped,
          tool: 'filesystem_read_text_file',
          nodeArgs: ['--max-semi-space-size=64'],
          args: [host, 'serve', '--config', configOf('uncapped', true), '--state', join(directory, 'uncapped.db')],
        },
      ]
    : []),
];
/** The ratios reported and their bars: [numerator, denominator, bar, the loads the bar holds at]. */
const comparisons: [string, string, number, readonly number[]][] = [
  [embedded, direct, bar, loads],
  [embedded, noStore, bar, loads],
  ...(postgres === undefined ? [] : [[shared, embedded, bar, [64]] as [string, string, number, readonly number[]]]),
  ...(process.env.BENCH_HOST_UNCAPPED === '1'
    ? [[embedded, uncapped, 0, []] as [string, string, number, readonly number[]]]
    : []),
];

const clockTicksPerSecond = existsSync('/proc/self/stat')
  ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
  : Number.NaN;

/** User plus system CPU time a process has used, in seconds; NaN where there is no /proc. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined || Number.isNaN(clockTicksPerSecond)) return Number.NaN;
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
}

/** What `process.memoryUsage()` says, in bytes. */
interface HeapFigures {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface ServerMemory {
  /** The resident set from /proc, before the server is asked anything. */
  resident: number;
  left: HeapFigures;
  collected: HeapFigures;
}

/** A server's memory as the run left it, and after a full collection; undefined where there is no /proc. */
async function memoryOf(server: SpawnedHttpServer): Promise<ServerMemory | undefined> {
  const pid = server.child.pid;
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return undefined;
  const resident = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
  const report = join(memoryDirectory, `${pid}.json`);
  server.child.kill('SIGUSR2');
  while (!existsSync(report)) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`server ${pid} exited`);
    await sleep(50);
  }
  const { left, collected } = JSON.parse(readFileSync(report, 'utf8')) as Omit<ServerMemory, 'resident'>;
  return { resident, left, collected };
}

function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** The median of the values and the quartiles around it, which show the spread from round to round. */
function quartiles(values: readonly number[]): { low: number; median: number; high: number } {
  const sorted = [...values].sort((left, right) => left - right);
  const at = (quantile: number) => sorted[Math.floor(quantile * (sorted.length - 1) + 0.5)] ?? Number.NaN;
  return { low: at(0.25), median: at(0.5), high: at(0.75) };
}

interface Caller {
  client: RawHttpClient;
  call(id: number): Promise<void>;
}

/** The JSON-RPC answer in a JSON or SSE body, checked to be the file's text. */
function checkAnswer(status: number, body: string, id: number): void {
  const json = body.startsWith('{')
    ? body
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.length > 6)
        .map((line) => line.slice(5))
        .find((data) => data.includes(`"id":${id}`));
  const message = JSON.parse(json ?? '{}') as {
    id?: number;
    result?: { isError?: boolean; content?: { text?: string }[] };
  };
  const text = message.result?.content?.[0]?.text;
  if (status !== 200 || message.id !== id || message.result?.isError === true || !text?.includes(marker)) {
    throw new Error(`unexpected answer to call ${id}: ${status} ${body.slice(0, 300)}`);
  }
}

async function openCaller(url: URL, era: Era, tool: string): Promise<Caller> {
  const client = await RawHttpClient.open(url);
  let headers: Record<string, string>;
  let params: string;
  if (era === 'legacy') {
    const init = await client.post(
      {},
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initializeParams }),
    );
    const sessionId = /\r\nmcp-session-id: *([^\r]+)/i.exec(init.head)?.[1];
    if (sessionId === undefined) throw new Error(`no session: ${init.status} ${init.body.slice(0, 300)}`);
    headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': legacyProtocolVersion };
    await client.post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    params = JSON.stringify({ name: tool, arguments: { path: file } });
  } else {
    headers = modernHeaders('tools/call', tool);
    params = JSON.stringify({ name: tool, arguments: { path: file }, _meta: modernMeta });
  }
  return {
    client,
    async call(id) {
      const answer = await client.post(
        headers,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
      );
      checkAnswer(answer.status, answer.body, id);
    },
  };
}

/** The machine's load average over the last minute, from /proc; the bench's figures depend on what else runs. */
function loadAverage(): string {
  return existsSync('/proc/loadavg') ? (readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?') : 'n/a';
}

const servers: SpawnedHttpServer[] = [];
const loadAtStart = loadAverage();
let loadAtEnd = loadAtStart;
const results = new Map<string, RoundSummary & { cpuPerCallMs: number }>();
const ratios = new Map<string, { low: number; median: number; high: number }>();
const cpuRatios = new Map<string, { low: number; median: number; high: number }>();
const rateOf = new Map<string, number[]>();
const cpuOf = new Map<string, number[]>();
const loadsSeen: number[] = [];
const memory = new Map<string, ServerMemory>();
const eras = selectedEras();
try {
  for (const target of targets) {
    servers.push(
      await spawnHttpServer(
        [...nodeArgs, ...(target.nodeArgs ?? []), ...useBuilt, ...target.args, '--http', '127.0.0.1:0'],
        {
          env: {
            ...process.env,
            ...target.env,
            XDG_STATE_HOME: join(directory, 'state'),
            BENCH_MEMORY_DIRECTORY: memoryDirectory,
          },
        },
      ),
    );
  }
  const ids = { next: 1 };
  for (const era of eras) {
    for (const clients of loads) {
      const cells = await Promise.all(
        targets.map(async (target, index) => {
          const url = (servers[index] as SpawnedHttpServer).url;
          const callers = await Promise.all(Array.from({ length: clients }, () => openCaller(url, era, target.tool)));
          await callers[0]?.call(ids.next++);
          const cpuPerCall: number[] = [];
          return {
            target,
            callers,
            recorder: new RoundRecorder(),
            rates: [] as number[],
            cpuPerCall,
            cpu: 0,
            calls: 0,
          };
        }),
      );
      for (const cell of cells) await keepBusy(cell.callers, warmUpMs, ids);
      for (let round = 0; round < rounds; round++) {
        loadsSeen.push(Number(loadAverage()));
        for (const [index, cell] of cells.entries()) {
          const pid = servers[index]?.child.pid;
          const cpuBefore = cpuSeconds(pid);
          const ran = await keepBusy(cell.callers, (seconds * 1000) / rounds, ids);
          const cpu = cpuSeconds(pid) - cpuBefore;
          cell.cpu += cpu;
          cell.cpuPerCall.push(cpu / ran.calls);
          cell.calls += ran.calls;
          cell.recorder.add(ran.calls, ran.seconds, ran.latencies);
          cell.rates.push(ran.calls / ran.seconds);
        }
      }
      for (const cell of cells) {
        for (const caller of cell.callers) caller.client.close();
        results.set(`${era}|${clients}|${cell.target.name}`, {
          ...cell.recorder.summary(),
          cpuPerCallMs: (cell.cpu * 1000) / cell.calls,
        });
      }
      for (const cell of cells) {
        rateOf.set(cell.target.name, cell.rates);
        cpuOf.set(cell.target.name, cell.cpuPerCall);
      }
      for (const [of, over] of comparisons) {
        const numerator = rateOf.get(of);
        const denominator = rateOf.get(over);
        if (numerator === undefined || denominator === undefined) continue;
        ratios.set(
          `${era}|${clients}|${of}|${over}`,
          quartiles(numerator.map((rate, round) => rate / (denominator[round] ?? 1))),
        );
        const cpuNumerator = cpuOf.get(of) ?? [];
        const cpuDenominator = cpuOf.get(over) ?? [];
        cpuRatios.set(
          `${era}|${clients}|${of}|${over}`,
          quartiles(cpuNumerator.map((cpu, round) => cpu / (cpuDenominator[round] ?? Number.NaN))),
        );
      }
    }
  }
  loadAtEnd = loadAverage();
  for (const [index, target] of targets.entries()) {
    const figures = await memoryOf(servers[index] as SpawnedHttpServer);
    if (figures !== undefined) memory.set(target.name, figures);
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres?.stop();
  rmSync(directory, { recursive: true, force: true });
}

const loadRange = loadsSeen.length === 0 ? '' : ` (${Math.min(...loadsSeen)}–${Math.max(...loadsSeen)} at the rounds)`;
console.log(
  `Streamable HTTP, tools/call read_text_file of a ${marker.length * 10 + 10}-byte file, built packages, ${seconds} s per cell in ${rounds} rounds taken in turn (calls/s: median round), Node ${process.version}, load average ${loadAtStart} at the start and ${loadAtEnd} at the end${loadRange}`,
);
const misses: string[] = [];
for (const era of eras) {
  console.log(`\n${eraLabels[era]}\n`);
  console.log('| clients | server | calls/s | p50 ms | p99 ms | CPU per call |');
  console.log('| ---: | --- | ---: | ---: | ---: | ---: |');
  for (const clients of loads) {
    for (const target of targets) {
      const row = results.get(`${era}|${clients}|${target.name}`);
      if (row === undefined) continue;
      const cpu = Number.isNaN(row.cpuPerCallMs) ? 'n/a' : `${Math.round(row.cpuPerCallMs * 1000)} µs`;
      console.log(
        `| ${clients} | ${target.name} | ${Math.round(row.callsPerSecond)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${cpu} |`,
      );
    }
  }
  console.log(
    '\n| clients | ratio | calls/s, median of rounds | middle half of rounds | bar | CPU per call, whole cell | middle half of rounds |',
  );
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const clients of loads) {
    for (const [of, over, least, at] of comparisons) {
      const spread = ratios.get(`${era}|${clients}|${of}|${over}`);
      if (spread === undefined) continue;
      const cpu = cpuRatios.get(`${era}|${clients}|${of}|${over}`);
      const cpuWhole =
        (results.get(`${era}|${clients}|${of}`)?.cpuPerCallMs ?? Number.NaN) /
        (results.get(`${era}|${clients}|${over}`)?.cpuPerCallMs ?? Number.NaN);
      const cpuCells =
        cpu === undefined || Number.isNaN(cpuWhole)
          ? 'n/a | n/a'
          : `${cpuWhole.toFixed(2)}× | ${cpu.low.toFixed(2)}–${cpu.high.toFixed(2)}×`;
      const ratio = spread.median;
      const held = !at.includes(clients) || ratio >= least;
      if (!held) misses.push(`${era} era, ${clients} clients, ${of} ÷ ${over}: ${ratio.toFixed(2)}×`);
      console.log(
        `| ${clients} | ${of} ÷ ${over} | ${ratio.toFixed(2)}×${held ? '' : ' ✗'} | ${spread.low.toFixed(2)}–${spread.high.toFixed(2)}× | ${at.includes(clients) ? `≥ ${least}×` : '—'} | ${cpuCells} |`,
      );
    }
  }
}
const directMemory = memory.get(direct);
if (directMemory !== undefined) {
  console.log('\nMemory after the run: as left, and after a full garbage collection\n');
  console.log(
    '| server | RSS | heap used | external | array buffers | RSS after GC | heap used after GC | RSS ÷ direct |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const target of targets) {
    const figures = memory.get(target.name);
    if (figures === undefined) continue;
    const ratio = figures.resident / directMemory.resident;
    const held = target.name !== embedded || ratio <= memoryBar;
    if (!held) misses.push(`${embedded} RSS ÷ ${direct}: ${ratio.toFixed(2)}×`);
    console.log(
      `| ${target.name} | ${mebibytes(figures.resident)} | ${mebibytes(figures.left.heapUsed)} | ${mebibytes(figures.left.external)} | ${mebibytes(figures.left.arrayBuffers)} | ${mebibytes(figures.collected.rss)} | ${mebibytes(figures.collected.heapUsed)} | ${ratio.toFixed(2)}×${held ? '' : ' ✗'} |`,
    );
  }
  console.log(`\nBar: ${embedded} RSS ≤ ${memoryBar}× ${direct}.`);
}
console.log(misses.length === 0 ? '\nEvery bar is met.' : `\nBars missed: ${misses.join('; ')}`);
if (misses.length > 0) process.exitCode = 1;
