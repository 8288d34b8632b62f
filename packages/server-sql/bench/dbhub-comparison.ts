/**
 * The server against dbhub (`@bytebase/dbhub`, read-only mode) on the same
 * database, both as bins over stdio with a SELECT-only account: point lookups
 * with 8 calls in flight, a 10,000-row scan, cold start to the first
 * tools/list, and the PSS of each process tree. Every layer of ours is on.
 * The engine's bench starts the database and names the two contenders.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processTree } from '@toolshed/mcp-core/testing';

export const ourBin: string = new URL('../bin/toolshed-sql.js', import.meta.url).pathname;
export const dbhubBin: string = new URL('../node_modules/@bytebase/dbhub/dist/index.js', import.meta.url).pathname;

export interface Contender {
  name: string;
  args: string[];
  pointLookup(id: number): { name: string; arguments: Record<string, unknown> };
  scan: { name: string; arguments: Record<string, unknown> };
}

interface Connected {
  client: Client;
  pid: number;
}

async function connect(contender: Contender): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: contender.args,
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

/** Kilobytes of PSS of a process and everything under it. */
function pssKb(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      const rollup = readFileSync(`/proc/${member}/smaps_rollup`, 'utf8');
      total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function coldStartMs(contender: Contender): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    const { client } = await connect(contender);
    await client.listTools();
    samples.push(performance.now() - started);
    await client.close();
  }
  return median(samples);
}

async function checked(client: Client, call: { name: string; arguments: Record<string, unknown> }): Promise<void> {
  const result = (await client.callTool(call)) as { isError?: boolean; content: { text?: string }[] };
  if (result.isError) throw new Error(`${call.name} failed: ${result.content[0]?.text}`);
}

/** Calls per second with `inFlight` calls kept running at once. */
async function callsPerSecond(
  client: Client,
  total: number,
  inFlight: number,
  next: (index: number) => { name: string; arguments: Record<string, unknown> },
): Promise<number> {
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total) await checked(client, next(issued++));
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/** Runs both contenders in turn and prints the table and the ratios (ours ÷ dbhub). */
export async function compareWithDbhub(contenders: readonly [Contender, Contender]): Promise<void> {
  const rows: string[][] = [];
  for (const contender of contenders) {
    const cold = await coldStartMs(contender);
    const { client, pid } = await connect(contender);
    // Warm both up the same way: connections open, statements and code paths seen once.
    await callsPerSecond(client, 200, 8, (index) => contender.pointLookup(1 + (index % 10_000)));
    await checked(client, contender.scan);
    const lookups = await callsPerSecond(client, 4000, 8, (index) =>
      contender.pointLookup(1 + ((index * 7919) % 10_000)),
    );
    const scans = await callsPerSecond(client, 40, 1, () => contender.scan);
    const pss = pssKb(pid);
    await client.close();
    rows.push([contender.name, lookups.toFixed(0), scans.toFixed(1), cold.toFixed(0), (pss / 1024).toFixed(1)]);
  }
  const header = [
    'server',
    'point lookups, 8 in flight (calls/s)',
    '10,000-row scan (calls/s)',
    'cold start to tools/list (ms)',
    'PSS of process tree (MiB)',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const [ours = [], theirs = []] = rows.map((row) => row.slice(1).map(Number));
  const ratio = (index: number) => `${((ours[index] ?? 0) / (theirs[index] ?? 1)).toFixed(2)}×`;
  console.log(
    `\nratios (server-sql ÷ dbhub): lookups ${ratio(0)}, scan ${ratio(1)}, cold start ${ratio(2)}, PSS ${ratio(3)}`,
  );
}
