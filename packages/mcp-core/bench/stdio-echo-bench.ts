/**
 * Echo over stdio: Toolshed's mcp-core against the official SDK v1 and v2,
 * driven by the same raw newline-JSON client in the same run.
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *
 * Cold start: spawn to initialize result, median of runs taken in turn.
 * Throughput: calls/s with 32 calls in flight; latency p50/p99 of those calls.
 * Memory: the server's resident set size after the load (from /proc).
 * mcp-core runs twice: as a bin ships (one bundled file, compile cache on) and
 * as a plain import of the package, so both figures are on the table.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { buildBundledEcho } from './build-bundled-echo.ts';

const servers = [
  { name: 'mcp-core, as a bin ships', script: 'servers/toolshed-echo-bin.mjs' },
  { name: 'mcp-core, plain import', script: 'servers/toolshed-echo-server.mjs' },
  { name: 'SDK v1 McpServer', script: 'servers/sdk-v1-echo.mjs' },
  { name: 'SDK v2 serveStdio', script: 'servers/sdk-v2-echo.mjs' },
] as const;

const coldStartRuns = Number(process.env.BENCH_COLD_RUNS ?? 15);
const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const inFlight = 32;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

await buildBundledEcho();

interface Connection {
  child: ChildProcessWithoutNullStreams;
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  notify(method: string): void;
}

function connect(script: string): Connection {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const waiting = new Map<number, (message: unknown) => void>();
  let pending = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const message = JSON.parse(pending.slice(0, newline)) as { id?: number };
      pending = pending.slice(newline + 1);
      if (typeof message.id === 'number') {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
      newline = pending.indexOf('\n');
    }
  });
  child.stderr.resume();
  return {
    child,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

const initializeParams = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1.0.0' },
};

async function stop(connection: Connection): Promise<void> {
  const exited = new Promise((resolve) => connection.child.once('exit', resolve));
  connection.child.stdin.end();
  setTimeout(() => connection.child.kill('SIGKILL'), 2000).unref();
  await exited;
}

async function coldStart(script: string): Promise<number> {
  const started = performance.now();
  const connection = connect(script);
  await connection.request('initialize', initializeParams);
  const elapsed = performance.now() - started;
  await stop(connection);
  return elapsed;
}

function residentKib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

async function load(script: string): Promise<{ callsPerSecond: number; p50: number; p99: number; rssMib: number }> {
  const connection = connect(script);
  await connection.request('initialize', initializeParams);
  connection.notify('notifications/initialized');
  const call = () => connection.request('tools/call', { name: 'echo', arguments: { text } });
  for (let index = 0; index < 2000; index++) await call(); // warm up
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  async function worker(): Promise<void> {
    while (issued < calls) {
      issued++;
      const sent = performance.now();
      await call();
      latencies.push(performance.now() - sent);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - started) / 1000;
  const rssMib = residentKib(connection.child.pid as number) / 1024;
  await stop(connection);
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] as number;
  return { callsPerSecond: calls / seconds, p50: at(0.5), p99: at(0.99), rssMib };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

console.log(`node ${process.version}, ${calls} calls with ${inFlight} in flight, ${coldStartRuns} cold starts each\n`);
const starts = new Map<string, number[]>(servers.map((server) => [server.name, []]));
for (let run = 0; run < coldStartRuns; run++) {
  // In turn, so that machine noise falls on all of them alike.
  for (const server of servers) starts.get(server.name)?.push(await coldStart(server.script));
}
const results = [];
for (const server of servers) {
  results.push({
    name: server.name,
    coldStartMs: median(starts.get(server.name) ?? []),
    ...(await load(server.script)),
  });
}

const ours = results[0] as (typeof results)[number];
const rows = results.map((result) => [
  result.name,
  result.coldStartMs.toFixed(1),
  result.callsPerSecond.toFixed(0),
  result.p50.toFixed(2),
  result.p99.toFixed(2),
  result.rssMib.toFixed(1),
]);
console.log('| server | cold start ms (median) | calls/s | p50 ms | p99 ms | RSS MiB after load |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log('\n| mcp-core vs | calls/s (bar ≥ 2×) | cold start (bar ≤ 0.5×) | RSS (bar ≤ 0.6×) |');
console.log('| --- | ---: | ---: | ---: |');
for (const other of results.slice(2)) {
  const throughput = ours.callsPerSecond / other.callsPerSecond;
  const cold = ours.coldStartMs / other.coldStartMs;
  const rss = ours.rssMib / other.rssMib;
  const mark = (ok: boolean) => (ok ? '' : ' ✗');
  console.log(
    `| ${other.name} | ${throughput.toFixed(2)}×${mark(throughput >= 2)} | ${cold.toFixed(2)}×${mark(cold <= 0.5)} | ${rss.toFixed(2)}×${mark(rss <= 0.6)} |`,
  );
}
