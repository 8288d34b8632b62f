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
 * The SDK client's stdio reader costs time that grows with the square of a
 * line's length, so the same first call is also timed with a plain client
 * (a new server each round, in the same rotation): it speaks JSON-RPC over
 * the pipe itself, keeps the answer's chunks as they arrive and parses the
 * line once, and reports the time to the answer's last byte (what the server
 * takes) and to the parsed answer.
 *
 *   node bench/directory-tree-bench.ts
 */
import { spawn } from 'node:child_process';
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

/**
 * The bin spoken to without an SDK: newline-delimited JSON-RPC written to its stdin, its stdout kept as the chunks
 * that arrive and each line joined and parsed once, when its newline arrives.
 */
async function spawnPlainServer(): Promise<{ call(): Promise<Timed & { lastByteMs: number }>; close(): void }> {
  const child = spawn(process.execPath, [ourBin, generatedTree], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pid = child.pid as number;
  let chunks: Buffer[] = [];
  let waiting: ((line: Buffer, arrived: number) => void) | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    const arrived = performance.now();
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, end));
      const line = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      chunks = [];
      start = end + 1;
      waiting?.(line, arrived);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  let nextId = 1;
  /** Sends a request and waits for the line that answers it (notifications in between are passed over). */
  const request = (method: string, params: object) =>
    new Promise<{ line: Buffer; arrived: number; began: number }>((resolve) => {
      const id = nextId++;
      waiting = (line, arrived) => {
        // Only the answer starts with its id this early; a notification has no id.
        if (!line.subarray(0, 40).toString('latin1').includes(`"id":${id}`)) return;
        waiting = undefined;
        resolve({ line, arrived, began });
      };
      const began = performance.now();
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-plain', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    async call() {
      const cpu = processCpuMs(pid);
      const clientCpu = process.cpuUsage();
      const { line, arrived, began } = await request('tools/call', {
        name: 'directory_tree',
        arguments: { path: generatedTree },
      });
      const answer = JSON.parse(line.toString('utf8')) as {
        result?: { content: { text: string }[]; isError?: boolean };
      };
      const ms = performance.now() - began;
      const clientUsed = process.cpuUsage(clientCpu);
      const cpuMs = processCpuMs(pid) - cpu;
      if (answer.result === undefined || answer.result.isError === true) {
        throw new Error(`directory_tree failed: ${line.subarray(0, 300).toString()}`);
      }
      return {
        ms,
        lastByteMs: arrived - began,
        cpuMs,
        clientCpuMs: (clientUsed.user + clientUsed.system) / 1000,
        length: answer.result.content[0]?.text.length ?? 0,
      };
    },
    close: () => child.stdin.end(),
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
const plainCalls: (Timed & { lastByteMs: number })[] = [];
for (let round = 0; round < rounds; round++) {
  // Three steps in rotation: the floor, the SDK client's first and second calls, the plain client's first call.
  const steps = [
    async () => floorRuns.push(floor()),
    async () => {
      const server = await spawnServer();
      firstCalls.push(await server.call());
      secondCalls.push(await server.call());
      await server.close();
    },
    async () => {
      const server = await spawnPlainServer();
      plainCalls.push(await server.call());
      server.close();
    },
  ];
  for (let step = 0; step < steps.length; step++)
    await (steps[(step + round) % steps.length] as () => Promise<unknown>)();
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
console.log(row('ours, spawned server, first call, plain client: to parsed', plainCalls));
console.log(
  row(
    'ours, spawned server, first call, plain client: to last byte',
    plainCalls.map((run) => ({ ...run, ms: run.lastByteMs })),
  ),
);
