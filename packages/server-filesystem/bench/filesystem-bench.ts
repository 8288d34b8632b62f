/**
 * The reference filesystem server (@modelcontextprotocol/server-filesystem)
 * and ours, each started as its bin over stdio by the official SDK client,
 * on the same generated tree of ~15,000 files, in one run: cold start,
 * directory_tree, search_files, read_text_file and list_directory calls per
 * second, and resident memory after the work. Reports ratios.
 *
 *   pnpm --filter @toolshed/server-filesystem bench
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  branching,
  filesPerDirectory,
  generateTree,
  levels,
  median,
  ourBin,
  generatedTree as tree,
} from './generated-tree.ts';

const referenceBin = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  '..',
  'dist',
  'index.js',
);

interface Started {
  client: Client;
  pid: number;
  startMs: number;
}

async function start(bin: string): Promise<Started> {
  const began = performance.now();
  // Ours may return a read as large as a whole tree, for the transfer floor below.
  const args = bin === referenceBin ? [bin, tree] : [bin, tree, '--max-read-bytes', String(16 * 1024 * 1024)];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  await client.listTools();
  return { client, pid: transport.pid as number, startMs: performance.now() - began };
}

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line === null ? Number.NaN : Number(line[1]) / 1024;
}

async function timeCall(client: Client, name: string, args: Record<string, unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    const result = await client.callTool({ name, arguments: args });
    times.push(performance.now() - began);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return median(times);
}

async function callsPerSecond(client: Client, name: string, args: () => Record<string, unknown>, calls: number) {
  const began = performance.now();
  for (let call = 0; call < calls; call++) {
    const result = await client.callTool({ name, arguments: args() });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  return calls / ((performance.now() - began) / 1000);
}

const fileCount = generateTree();
console.log(`Tree: ${fileCount} files in ${(branching ** (levels + 1) - 1) / (branching - 1)} directories (${tree})`);
console.log(`Node ${process.version}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}\n`);

const rows: [string, string, number, number, 'lower' | 'higher'][] = [];
const coldStarts: Record<string, number[]> = { reference: [], ours: [] };
for (let round = 0; round < 5; round++) {
  for (const [name, bin] of [
    ['reference', referenceBin],
    ['ours', ourBin],
  ] as const) {
    const started = await start(bin);
    coldStarts[name]?.push(started.startMs);
    await started.client.close();
  }
}
rows.push([
  'cold start to tools/list',
  'ms',
  median(coldStarts.reference ?? []),
  median(coldStarts.ours ?? []),
  'lower',
]);

const reference = await start(referenceBin);
const ours = await start(ourBin);
const servers = { reference, ours };
const results: Record<string, Record<string, number>> = { reference: {}, ours: {} };
for (const [name, server] of Object.entries(servers)) {
  const record = results[name] as Record<string, number>;
  record.tree = await timeCall(server.client, 'directory_tree', { path: tree }, 5);
  record.search = await timeCall(server.client, 'search_files', { path: tree, pattern: '**/*.ts' }, 5);
  record.read = await callsPerSecond(
    server.client,
    'read_text_file',
    () => ({ path: join(tree, `file-${3 * Math.floor((Math.random() * filesPerDirectory) / 3)}.ts`) }),
    1000,
  );
  record.list = await callsPerSecond(server.client, 'list_directory', () => ({ path: tree }), 1000);
  record.rss = rssMb(server.pid);
}
const [referenceResults, ourResults] = [
  results.reference as Record<string, number>,
  results.ours as Record<string, number>,
];
rows.push(
  ['directory_tree, whole tree', 'ms', referenceResults.tree as number, ourResults.tree as number, 'lower'],
  ['search_files **/*.ts', 'ms', referenceResults.search as number, ourResults.search as number, 'lower'],
  ['read_text_file', 'calls/s', referenceResults.read as number, ourResults.read as number, 'higher'],
  ['list_directory', 'calls/s', referenceResults.list as number, ourResults.list as number, 'higher'],
  ['RSS after the above', 'MB', referenceResults.rss as number, ourResults.rss as number, 'lower'],
);
// The transfer floor: the same bytes as the tree answer, read from a file,
// with no walk. What is left above it is the server's own work.
const treeText = (
  (await ours.client.callTool({ name: 'directory_tree', arguments: { path: tree } })) as {
    content: { text: string }[];
  }
).content[0]?.text as string;
const floorFile = join(tree, 'tree-answer.json');
writeFileSync(floorFile, treeText);
const floor = await timeCall(ours.client, 'read_text_file', { path: floorFile }, 5);
rmSync(floorFile);
await reference.client.close();
await ours.client.close();

console.log(
  `Transfer floor: the ${(treeText.length / 1e6).toFixed(1)} MB tree answer, sent as a file read: ${floor.toFixed(1)} ms. ` +
    `directory_tree above the floor: reference ${(referenceResults.tree as number) - floor > 0 ? ((referenceResults.tree as number) - floor).toFixed(1) : 'n/a'} ms, ` +
    `ours ${((ourResults.tree as number) - floor).toFixed(1)} ms.\n`,
);
console.log('| measure | unit | reference | ours | ours is |');
console.log('|---|---|---:|---:|---|');
for (const [measure, unit, theirs, mine, better] of rows) {
  const factor = better === 'lower' ? theirs / mine : mine / theirs;
  const verdict =
    factor >= 1
      ? `${factor.toFixed(1)}x ${better === 'lower' ? 'faster' : 'more'}`
      : `${(1 / factor).toFixed(1)}x worse`;
  const label = unit === 'MB' && factor >= 1 ? `${factor.toFixed(1)}x smaller` : verdict;
  console.log(`| ${measure} | ${unit} | ${theirs.toFixed(1)} | ${mine.toFixed(1)} | ${label} |`);
}
