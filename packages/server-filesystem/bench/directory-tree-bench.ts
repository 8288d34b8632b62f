/**
 * directory_tree against its floor, measured from outside, cold server
 * included. The floor is the same tree walked in this process with
 * readdirSync (withFileTypes), built as {name, type, children} nodes and
 * serialized as the reference server serializes it (JSON.stringify with an
 * indent of 2) into a tools/call answer of the reference's shape (the text
 * block and structuredContent.content). Ours is the bin, spawned afresh each
 * round and connected with the official SDK client over stdio; its first
 * tools/call after initialize is timed in the client from request to parsed
 * result, and a second call on the same server beside it. Rounds alternate
 * which side goes first; medians and the range. CPU per call: the server's
 * from /proc/<pid>/stat, the client's (this process, reading the answer) and
 * the floor's from process.cpuUsage.
 *
 *   node bench/directory-tree-bench.ts
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { directoryCount, generatedTree, generateTree, median, ourBin } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

interface TreeNode {
  name: string;
  type: 'file' | 'directory';
  children?: TreeNode[];
}

function walk(directory: string): TreeNode[] {
  return readdirSync(directory, { withFileTypes: true }).map((entry: Dirent) =>
    entry.isDirectory()
      ? { name: entry.name, type: 'directory', children: walk(`${directory}/${entry.name}`) }
      : { name: entry.name, type: 'file' },
  );
}

interface Timed {
  ms: number;
  /** The server's CPU for the call; for the floor, this process's. */
  cpuMs: number;
  /** This process's CPU meanwhile: the client reading and checking the answer. */
  clientCpuMs: number;
  length: number;
}

function floor(): Timed {
  const cpu = process.cpuUsage();
  const began = performance.now();
  const text = JSON.stringify(walk(generatedTree), null, 2);
  const result = { content: [{ type: 'text', text }], structuredContent: { content: text } };
  // Serialized as a transport would before writing it; the line itself is not needed here.
  JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  const ms = performance.now() - began;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, clientCpuMs: 0, length: text.length };
}

const ticksPerSecond = 100;
/** User and system CPU a process has used, from /proc (clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

interface Spawned {
  call(): Promise<Timed>;
  close(): Promise<void>;
}

async function spawnServer(): Promise<Spawned> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ourBin, generatedTree],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const pid = transport.pid as number;
  return {
    async call() {
      const cpu = processCpuMs(pid);
      const clientCpu = process.cpuUsage();
      const began = performance.now();
      const result = (await client.callTool({ name: 'directory_tree', arguments: { path: generatedTree } })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      const ms = performance.now() - began;
      const clientUsed = process.cpuUsage(clientCpu);
      const cpuMs = processCpuMs(pid) - cpu;
      if (result.isError === true) throw new Error(`directory_tree failed: ${result.content[0]?.text}`);
      return {
        ms,
        cpuMs,
        clientCpuMs: (clientUsed.user + clientUsed.system) / 1000,
        length: result.content[0]?.text.length ?? 0,
      };
    },
    close: () => client.close(),
  };
}

function spread(values: readonly number[]): string {
  return `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
}

const fileCount = generateTree();
console.log(`Tree: ${fileCount} files in ${directoryCount} directories (${generatedTree})`);
console.log(`Node ${process.version}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}`);
const loadBefore = loadavg();

// The floor once untimed, so it is timed warm (its code compiled) while ours is timed cold. One server started and
// stopped untimed too: a new build's bin writes its code cache when it first exits, as after installing.
floor();
await (await spawnServer()).close();
const floorRuns: Timed[] = [];
const firstCalls: Timed[] = [];
const secondCalls: Timed[] = [];
for (let round = 0; round < rounds; round++) {
  const server = await spawnServer();
  if (round % 2 === 0) floorRuns.push(floor());
  firstCalls.push(await server.call());
  secondCalls.push(await server.call());
  if (round % 2 === 1) floorRuns.push(floor());
  await server.close();
}
const loadAfter = loadavg();

const floorMs = median(floorRuns.map((run) => run.ms));
// /proc counts CPU in ticks of 10 ms, so the server's CPU is a mean over the rounds, not a median.
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const row = (label: string, runs: Timed[]) => {
  const ms = median(runs.map((run) => run.ms));
  const cpu = `${mean(runs.map((run) => run.cpuMs)).toFixed(0)} / ${mean(runs.map((run) => run.clientCpuMs)).toFixed(0)}`;
  return `| ${label} | ${ms.toFixed(1)} | ${spread(runs.map((run) => run.ms))} | ${cpu} | ${(runs[0] as Timed).length} | ${(ms / floorMs).toFixed(2)}x |`;
};
console.log(
  `Load average ${loadBefore.map((load) => load.toFixed(2)).join(' ')} before, ` +
    `${loadAfter.map((load) => load.toFixed(2)).join(' ')} after\n`,
);
console.log(
  `| directory_tree, whole tree (${rounds} rounds, alternating) | median ms | range ms | CPU ms, server / client (mean) | tree text, characters | / floor |`,
);
console.log('|---|---:|---:|---:|---:|---:|');
console.log(row('floor: readdirSync walk, JSON.stringify, in process', floorRuns));
console.log(row('ours, spawned server, first call (the bar: ≤ 1.5x)', firstCalls));
console.log(row('ours, same server, second call (listings reused)', secondCalls));
