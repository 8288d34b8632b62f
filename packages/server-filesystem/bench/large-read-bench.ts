/**
 * Large reads against the reference server, side by side in one run:
 * read_text_file of a 5 MB file and read_multiple_files of ten 500 kB files.
 * Both servers are their bins over stdio, driven by the official SDK client;
 * ours is started with a read cap above 5 MB so both return every byte
 * (checked: the texts are the same length). Rounds alternate; medians.
 *
 *   node bench/large-read-bench.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { dataDirectory, median, ourBin } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const directory = join(dataDirectory, 'large-reads');

/** Text of about `bytes` bytes in lines of 20–120 characters, the same every run. */
function makeText(bytes: number, seed: number): string {
  const lines: string[] = [];
  let length = 0;
  let state = seed;
  while (length < bytes) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const line = `${lines.length}: ${'lorem ipsum dolor sit amet '.repeat(5).slice(0, 20 + (state % 100))}`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const big = join(directory, 'big-5mb.txt');
const parts = Array.from({ length: 10 }, (_, index) => join(directory, `part-${index}-500kb.txt`));
if (!existsSync(parts.at(-1) as string)) {
  mkdirSync(directory, { recursive: true });
  writeFileSync(big, makeText(5_000_000, 1));
  for (const [index, part] of parts.entries()) writeFileSync(part, makeText(500_000, index + 2));
}

const referenceBin = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  '..',
  'dist',
  'index.js',
);
const referenceVersion = JSON.parse(readFileSync(join(referenceBin, '..', '..', 'package.json'), 'utf8')) as {
  version: string;
};

async function start(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

const servers = {
  reference: await start([referenceBin, directory]),
  ours: await start([ourBin, directory, '--max-read-bytes', String(16 * 1024 * 1024)]),
};
console.log(
  `Node ${process.version}; reference ${referenceVersion.version}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}\n`,
);

const calls = [
  { label: 'read_text_file, 5 MB', name: 'read_text_file', arguments: { path: big } },
  { label: 'read_multiple_files, 10 x 500 kB', name: 'read_multiple_files', arguments: { paths: parts } },
];

async function timeCall(client: Client, call: (typeof calls)[number]): Promise<{ ms: number; textLength: number }> {
  const began = performance.now();
  const result = (await client.callTool({ name: call.name, arguments: call.arguments })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  const ms = performance.now() - began;
  if (result.isError) throw new Error(`${call.name} failed: ${result.content[0]?.text}`);
  return { ms, textLength: result.content[0]?.text.length ?? 0 };
}

console.log(`| call (${rounds} rounds, median) | reference ms | ours ms | ours / reference |`);
console.log('|---|---:|---:|---:|');
for (const call of calls) {
  const times = { reference: [] as number[], ours: [] as number[] };
  const lengths = { reference: 0, ours: 0 };
  for (const client of Object.values(servers)) await timeCall(client, call);
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always meets a warmer cache.
    const order = round % 2 === 0 ? (['reference', 'ours'] as const) : (['ours', 'reference'] as const);
    for (const name of order) {
      const { ms, textLength } = await timeCall(servers[name], call);
      times[name].push(ms);
      lengths[name] = textLength;
    }
  }
  if (lengths.reference !== lengths.ours) {
    throw new Error(`${call.label}: reference returned ${lengths.reference} characters and ours ${lengths.ours}`);
  }
  const reference = median(times.reference);
  const ours = median(times.ours);
  console.log(`| ${call.label} | ${reference.toFixed(1)} | ${ours.toFixed(1)} | ${(ours / reference).toFixed(2)}x |`);
}
await servers.reference.close();
await servers.ours.close();
