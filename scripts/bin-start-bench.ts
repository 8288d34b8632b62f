/**
 * `pnpm bench:start` (after `pnpm build`): every bin as it ships, against a
 * minimal official-SDK server with one tool (v1 `McpServer` and v2, over
 * stdio), in one run. Cold start is spawn to the answer of the first
 * `tools/list` (after `initialize`), with Node's compile caches as a second
 * start finds them (the bins keep a code cache of their start-up there);
 * "first start" is the same with an empty cache directory, as on the first
 * run after an install or upgrade. Memory is the resident set (RSS) and the
 * proportional set (PSS, shared pages split between processes) of the
 * process tree at that moment. Rounds take the servers in turn and the median
 * is reported, so a burst of other work on the machine does not land on one
 * server only.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTreeUsage } from '../packages/mcp-core/src/testing/real-service.ts';

const root = new URL('..', import.meta.url).pathname;
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const work = mkdtempSync(join(tmpdir(), 'toolshed-start-'));
const compileCache = join(work, 'compile-cache');
writeFileSync(join(work, 'empty.db'), '');
mkdirSync(join(work, 'files'));
writeFileSync(
  join(work, 'toolshed.json'),
  JSON.stringify({
    toolshed: { audit: { enabled: false } },
    mcpServers: { '@toolshed/server-sql': { databases: join(work, 'empty.db') } },
  }),
);

interface Contender {
  name: string;
  args: string[];
  cwd: string;
  /** The anchor the ratios are taken against. */
  anchor?: boolean;
}

const sdkServers = join(root, 'packages/mcp-core/bench/servers');
const contenders: Contender[] = [
  { name: 'SDK v1 minimal (1 tool)', args: [join(sdkServers, 'sdk-v1-echo.mjs')], cwd: sdkServers, anchor: true },
  { name: 'SDK v2 minimal (1 tool)', args: [join(sdkServers, 'sdk-v2-echo.mjs')], cwd: sdkServers },
  {
    name: 'toolshed-sql',
    args: [join(root, 'packages/server-sql/bin/toolshed-sql.js'), '--db', join(work, 'empty.db')],
    cwd: work,
  },
  {
    name: 'toolshed-filesystem',
    args: [join(root, 'packages/server-filesystem/bin/toolshed-filesystem.js'), join(work, 'files')],
    cwd: work,
  },
  { name: 'toolshed-weather', args: [join(root, 'packages/server-weather/bin/toolshed-weather.js')], cwd: work },
  {
    name: 'toolshed-email',
    args: [join(root, 'packages/server-email/bin/toolshed-email.js'), '--outbox', join(work, 'outbox')],
    cwd: work,
  },
  {
    name: 'toolshed-image',
    args: [join(root, 'packages/server-image/bin/toolshed-image.js'), join(work, 'files')],
    cwd: work,
  },
  {
    name: 'toolshed (host, one server)',
    args: [join(root, 'apps/host/bin/toolshed.js'), 'serve', '--config', join(work, 'toolshed.json')],
    cwd: work,
  },
];

interface Start {
  ms: number;
  /** CPU time the process tree had used by then: less moved by other work on the machine than wall time. */
  cpuMs: number;
  rssKib: number;
  pssKib: number;
}

let emptyCaches = 0;
function startOnce(contender: Contender, caches: 'warm' | 'empty' = 'warm'): Promise<Start> {
  const cacheDirectory = caches === 'warm' ? compileCache : join(work, `empty-cache-${emptyCaches++}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, contender.args, {
      cwd: contender.cwd,
      env: { ...process.env, NODE_COMPILE_CACHE: cacheDirectory },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${contender.name}: no tools/list answer in 30 s`));
    }, 30_000);
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const message = JSON.parse(buffered.slice(0, newline)) as { id?: number; result?: { tools?: unknown[] } };
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
        if (message.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          const ms = performance.now() - started;
          clearTimeout(timer);
          if (!Array.isArray(message.result?.tools) || message.result.tools.length === 0) {
            reject(new Error(`${contender.name}: tools/list answered ${JSON.stringify(message)}`));
          }
          const memory = processTreeUsage(child.pid ?? 0);
          child.once('exit', () => resolve({ ms, ...memory }));
          child.stdin.end();
          child.kill('SIGTERM');
        }
      }
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'start-bench', version: '1' } },
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const samples = new Map<string, Start[]>(contenders.map((contender) => [contender.name, []]));
const firstStarts = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
try {
  // One start of each to warm the disk cache and the compile caches, not counted.
  for (const contender of contenders) await startOnce(contender);
  for (let round = 0; round < rounds; round++) {
    for (const contender of contenders) samples.get(contender.name)?.push(await startOnce(contender));
    for (const contender of contenders) firstStarts.get(contender.name)?.push((await startOnce(contender, 'empty')).ms);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const anchor = contenders.find((contender) => contender.anchor === true) as Contender;
const anchorSamples = samples.get(anchor.name) ?? [];
const anchorMs = median(anchorSamples.map((sample) => sample.ms));
const anchorRss = median(anchorSamples.map((sample) => sample.rssKib));
const anchorPss = median(anchorSamples.map((sample) => sample.pssKib));
console.log(
  `cold start to the first tools/list and memory then, node ${process.version}, median of ${rounds} rounds taken in turn; ratios against ${anchor.name}`,
);
console.log('');
const anchorCpu = median(anchorSamples.map((sample) => sample.cpuMs));
const anchorFirstMs = median(firstStarts.get(anchor.name) ?? []);
console.log(
  '| server | cold start ms | ÷ SDK (bar ≤ 0.5×) | first start ms | ÷ SDK | CPU ms | ÷ SDK | RSS MiB | ÷ SDK (bar ≤ 1.0×) | PSS MiB | ÷ SDK |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const contender of contenders) {
  const measured = samples.get(contender.name) ?? [];
  const ms = median(measured.map((sample) => sample.ms));
  const firstMs = median(firstStarts.get(contender.name) ?? []);
  const cpu = median(measured.map((sample) => sample.cpuMs));
  const rss = median(measured.map((sample) => sample.rssKib));
  const pss = median(measured.map((sample) => sample.pssKib));
  console.log(
    `| ${contender.name} | ${ms.toFixed(0)} | ${(ms / anchorMs).toFixed(2)}× | ${firstMs.toFixed(0)} | ${(firstMs / anchorFirstMs).toFixed(2)}× | ${cpu.toFixed(0)} | ${(cpu / anchorCpu).toFixed(2)}× | ${(rss / 1024).toFixed(1)} | ${(rss / anchorRss).toFixed(2)}× | ${(pss / 1024).toFixed(1)} | ${(pss / anchorPss).toFixed(2)}× |`,
  );
}
