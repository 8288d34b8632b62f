/**
 * What telemetry costs, over stdio in the 2025 era, in one run with rounds
 * taken in turn:
 *
 * - telemetry off, this build, against the build before telemetry existed
 *   (BENCH_BASE, default the commit before it, built in a temporary git
 *   worktree): bar ≥ 0.98×;
 * - tracing on (spans and metrics by OTLP/HTTP to a local receiver in a
 *   process of its own) against off, this build: bar ≥ 0.85×;
 * - spans alone and metrics alone, to say which costs what;
 * - tracing on with 1 request in 10 traced (`OTEL_TRACES_SAMPLER=
 *   parentbased_traceidratio`, `OTEL_TRACES_SAMPLER_ARG=0.1`), the lever an
 *   operator has at high call rates.
 *
 * Besides calls/s (the median round, with the slowest and fastest), each
 * server's CPU time per call is read from /proc/<pid>/stat around its
 * rounds: the machine is shared, and CPU per call says what telemetry costs
 * where calls/s also says how busy the machine was. The load average is
 * printed before and after.
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *
 * BENCH_CALLS calls per server (default 20,000) with 32 in flight, cut into
 * BENCH_ROUNDS rounds (default 5); calls/s is the median round. Every answer
 * is checked.
 *
 * Then, for scale, tracing on against off with a tool that does some real
 * work: it reads a 4 KB file (`fs/promises` readFile, through the thread
 * pool, as a file tool reads), the same number of calls and rounds. The echo
 * call is the bar's; a span costs the same beside either.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkEchoAnswer } from './check-answer.ts';
import { killOnExit } from './child-processes.ts';
import { initializeParams } from './protocol-eras.ts';
import { RoundRecorder } from './round-summary.ts';
import { connectStdio, type StdioConnection } from './stdio-client.ts';

const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const base = process.env.BENCH_BASE ?? '580e24c~1';
const inFlight = 32;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);
const packageRoot = new URL('..', import.meta.url).pathname;
const repositoryRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], {
  cwd: packageRoot,
  encoding: 'utf8',
}).trim();

if (!existsSync(join(packageRoot, 'dist/index.js'))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

/** The build before telemetry: a worktree at BENCH_BASE sharing this checkout's node_modules, its dist built there. */
function buildBase(): { directory: string; server: string } {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-core-base-'));
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', directory, base], { cwd: repositoryRoot });
  symlinkSync(join(repositoryRoot, 'node_modules'), join(directory, 'node_modules'));
  const core = join(directory, 'packages/mcp-core');
  symlinkSync(join(packageRoot, 'node_modules'), join(core, 'node_modules'));
  execFileSync(join(repositoryRoot, 'node_modules/.bin/rolldown'), ['-c', 'rolldown.config.ts'], {
    cwd: core,
    stdio: 'ignore',
  });
  return { directory, server: join(core, 'bench/servers/toolshed-echo-server.mjs') };
}

/** A tool call the load sends, and the text its answer must carry. */
interface BenchCall {
  params: string;
  answer: string;
  what: string;
}
const echoCall: BenchCall = {
  params: JSON.stringify({ name: 'echo', arguments: { text } }),
  answer: text,
  what: 'tools/call echo',
};

async function load(
  connection: StdioConnection,
  count: number,
  latencies: number[] | undefined,
  call: BenchCall = echoCall,
): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const started = performance.now();
      const answer = await connection.request('tools/call', call.params);
      latencies?.push(performance.now() - started);
      checkEchoAnswer(answer, 'legacy', call.answer, call.what);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/**
 * The local receiver: a process of its own that takes OTLP/HTTP exports and answers 200, as a collector's
 * receiver does, so that decoding spans does not take the load generator's CPU.
 */
async function startReceiver(): Promise<{ url: string; received(): Promise<number>; stop(): void }> {
  const source = `
    let exports = 0;
    const server = require('node:http').createServer((request, response) => {
      if (request.url === '/count') return response.end(String(exports));
      request.resume();
      request.on('end', () => { exports += 1; response.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = killOnExit(spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received: async () => Number(await (await fetch(`${url}/count`)).text()),
    stop: () => child.kill(),
  };
}

/** CPU time (user + system) a process has used, in ms, from /proc; undefined where there is none. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const receiver = await startReceiver();
const fileDirectory = mkdtempSync(join(tmpdir(), 'mcp-core-telemetry-bench-'));
const quiet = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
const baseBuild = buildBase();
const current = new URL('servers/toolshed-echo-telemetry.mjs', import.meta.url).pathname;
const contenders = [
  { name: 'before telemetry (base build)', script: baseBuild.server, env: quiet },
  { name: 'telemetry off', script: current, env: quiet },
  {
    name: 'tracing on, OTLP to a local receiver',
    script: current,
    env: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  },
  {
    name: 'spans only (OTEL_METRICS_EXPORTER=none)',
    script: current,
    env: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_METRICS_EXPORTER: 'none' },
  },
  {
    name: 'metrics only (OTEL_TRACES_EXPORTER=none)',
    script: current,
    env: { ...quiet, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_EXPORTER: 'none' },
  },
  {
    name: 'tracing on, 1 request in 10 traced',
    script: current,
    env: {
      ...quiet,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    },
  },
];
const loadBefore = loadAverage();
try {
  const connections = contenders.map((contender) => connectStdio(contender.script, contender.env));
  for (const connection of connections) {
    await connection.request('initialize', JSON.stringify(initializeParams));
    connection.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await load(connection, Math.min(2000, calls), undefined);
  }
  const recorders = contenders.map(() => new RoundRecorder());
  const rates = contenders.map((): number[] => []);
  const cpuPerCall = contenders.map((): number[] => []);
  const perRound = Math.ceil(calls / rounds);
  for (let round = 0; round < rounds; round++) {
    // Each round in a different order, so no server always follows the same one.
    const order = contenders.map((_, index) => (index + round) % contenders.length);
    for (const index of order) {
      const latencies: number[] = [];
      const connection = connections[index] as StdioConnection;
      const cpuBefore = cpuMs(connection.child.pid);
      const started = performance.now();
      await load(connection, perRound, latencies);
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = cpuMs(connection.child.pid);
      recorders[index]?.add(perRound, seconds, latencies);
      rates[index]?.push(perRound / seconds);
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        cpuPerCall[index]?.push(((cpuAfter - cpuBefore) * 1000) / perRound);
      }
    }
  }
  const summaries = recorders.map((recorder) => recorder.summary());
  console.log(
    `\nTelemetry cost, stdio, 2025 era, ${rounds} rounds of ${perRound.toLocaleString('en')} calls, ${inFlight} in flight`,
  );
  console.log('  (calls/s: median round [slowest–fastest]; CPU µs per call: median round; p50/p99 latency ms)');
  contenders.forEach((contender, index) => {
    const summary = summaries[index];
    const each = rates[index] ?? [];
    if (summary === undefined) return;
    const spread = `[${Math.round(Math.min(...each)).toLocaleString('en')}–${Math.round(Math.max(...each)).toLocaleString('en')}]`;
    const cpu = median(cpuPerCall[index] ?? []).toFixed(1);
    const rate = Math.round(summary.callsPerSecond).toLocaleString('en');
    console.log(
      `  ${contender.name.padEnd(42)} ${rate.padStart(7)} calls/s ${spread.padEnd(16)} CPU ${cpu.padStart(5)} µs/call  p50 ${summary.p50.toFixed(2)}  p99 ${summary.p99.toFixed(2)}`,
    );
  });
  const [before, off, on, , , sampled] = summaries.map((summary) => summary?.callsPerSecond ?? Number.NaN) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [cpuBefore, cpuOff, cpuOn, cpuSpans, cpuMetrics, cpuSampled] = cpuPerCall.map(median) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  console.log(
    `  off ÷ before telemetry:   ${(off / before).toFixed(3)}× calls/s, ${(cpuBefore / cpuOff).toFixed(3)}× by CPU per call (bar ≥ 0.98×)`,
  );
  console.log(
    `  tracing on ÷ off:         ${(on / off).toFixed(3)}× calls/s, ${(cpuOff / cpuOn).toFixed(3)}× by CPU per call (bar ≥ 0.85×)`,
  );
  console.log(
    `  1 in 10 traced ÷ off:     ${(sampled / off).toFixed(3)}× calls/s, ${(cpuOff / cpuSampled).toFixed(3)}× by CPU per call`,
  );
  console.log(
    `  CPU per call over off:    spans and metrics +${(cpuOn - cpuOff).toFixed(1)} µs, spans +${(cpuSpans - cpuOff).toFixed(1)} µs, metrics +${(cpuMetrics - cpuOff).toFixed(1)} µs, 1 in 10 traced +${(cpuSampled - cpuOff).toFixed(1)} µs`,
  );
  console.log(`  load average: ${loadBefore} before, ${loadAverage()} after (2 cores, shared)`);
  console.log(`  exports the receiver took: ${(await receiver.received()).toLocaleString('en')}`);

  // For scale: the same two servers, off and tracing on, with a call that reads a 4 KB file.
  const fileText = 'A line of text in a file that a tool reads, sixty-four bytes.\n'.repeat(64);
  const filePath = join(fileDirectory, 'read.txt');
  writeFileSync(filePath, fileText);
  const readCall: BenchCall = {
    params: JSON.stringify({ name: 'read_text', arguments: { path: filePath } }),
    answer: fileText,
    what: 'tools/call read_text',
  };
  const scale = [1, 2].map((index) => ({
    connection: connections[index] as StdioConnection,
    rates: [] as number[],
    cpu: [] as number[],
  }));
  for (const { connection } of scale) await load(connection, Math.min(2000, calls), undefined, readCall);
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? scale : [...scale].reverse()) {
      const cpuBefore = cpuMs(side.connection.child.pid);
      const started = performance.now();
      await load(side.connection, perRound, undefined, readCall);
      side.rates.push(perRound / ((performance.now() - started) / 1000));
      const cpuAfter = cpuMs(side.connection.child.pid);
      if (cpuBefore !== undefined && cpuAfter !== undefined) side.cpu.push(((cpuAfter - cpuBefore) * 1000) / perRound);
    }
  }
  const [readOff, readOn] = scale.map((side) => ({ rate: median(side.rates), cpu: median(side.cpu) })) as [
    { rate: number; cpu: number },
    { rate: number; cpu: number },
  ];
  console.log(
    `  a tool reading a 4 KB file: off ${Math.round(readOff.rate).toLocaleString('en')} calls/s, CPU ${readOff.cpu.toFixed(1)} µs/call; ` +
      `tracing on ${Math.round(readOn.rate).toLocaleString('en')} calls/s, CPU ${readOn.cpu.toFixed(1)} µs/call: ` +
      `${(readOn.rate / readOff.rate).toFixed(3)}× calls/s, ${(readOff.cpu / readOn.cpu).toFixed(3)}× by CPU per call`,
  );
  for (const connection of connections) connection.child.stdin.end();
  await new Promise((resolve) => setTimeout(resolve, 500));
} finally {
  receiver.stop();
  rmSync(fileDirectory, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'remove', '--force', baseBuild.directory], { cwd: repositoryRoot });
  rmSync(baseBuild.directory, { recursive: true, force: true });
}
