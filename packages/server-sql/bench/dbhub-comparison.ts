/**
 * The server against dbhub (`@bytebase/dbhub`, read-only, `max_rows = 5000`)
 * on the same database and the same SELECT-only account, both as bins over
 * stdio, measured the way an outside user would: a 100,000-row table, our
 * server with `--max-rows 5000 --timeout-ms 10000`, the same SQL text sent to
 * both (ids written into it, as a model writes them), point lookups with 8
 * calls in flight after a warm-up of 1,500 calls each, 2,000-row scans, cold
 * start to the first tools/list, and the PSS of each process tree under load.
 * Every layer of ours is on. The engine's bench starts the database and names
 * the two contenders. The two take turns over five rounds; each figure is the
 * median of its rounds. Calls per second move with whatever else the machine
 * runs; the CPU time each lookup costs the server's process tree and the
 * database server (from /proc, over every round) moves much less.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processTree, processTreeUsage } from '@toolshed/mcp-core/testing';

export const ourBin: string = new URL('../bin/toolshed-sql.js', import.meta.url).pathname;
export const dbhubBin: string = new URL('../node_modules/@bytebase/dbhub/dist/index.js', import.meta.url).pathname;

/** Rows in the table both servers read. */
export const tableRows = 100_000;
/** Rows in a scan. */
export const scanRows = 2_000;
/** dbhub's `max_rows` and our `--max-rows`. */
export const maxRows = 5_000;
/** Our `--timeout-ms`. */
export const timeoutMs = 10_000;

/** A point lookup of one id, the same SQL text for both servers. */
export function pointLookupSql(table: string, id: number): string {
  return `SELECT * FROM ${table} WHERE n = ${id}`;
}

/** A scan of `scanRows` rows in order, starting at `first`. */
export function scanSql(table: string, first: number): string {
  return `SELECT * FROM ${table} WHERE n BETWEEN ${first} AND ${first + scanRows - 1} ORDER BY n`;
}

export interface Contender {
  name: string;
  args: string[];
  /** The call that runs one SQL text. */
  call(sql: string): { name: string; arguments: Record<string, unknown> };
}

interface Connected {
  client: Client;
  pid: number;
}

async function connect(contender: Contender): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: contender.args,
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

/** The process that listens on a loopback port (the database server), when `ss` can tell. */
function listenerPid(port: number): number | undefined {
  try {
    const listing = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const pid = /pid=(\d+)/.exec(listing)?.[1];
    return pid === undefined ? undefined : Number(pid);
  } catch {
    return undefined;
  }
}

/** CPU time of each process of the database server's tree, in milliseconds, by pid. */
function databaseCpuByPid(pid: number): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(member, ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond);
    } catch {
      // Gone meanwhile.
    }
  }
  return byPid;
}

/**
 * The database server's CPU time between two readings, process by process:
 * a PostgreSQL backend whose idle connection closed meanwhile (the other
 * contender's pool letting it go) leaves the tree, and with it the time it
 * spent before; one that was idle until it left spent nothing meanwhile.
 */
function databaseCpuSpentMs(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

const clockTicksPerSecond = 100;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Spawn to the first tools/list answer, in milliseconds. */
async function coldStartMs(contender: Contender): Promise<number> {
  const started = performance.now();
  const { client } = await connect(contender);
  await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

async function checked(client: Client, call: { name: string; arguments: Record<string, unknown> }): Promise<void> {
  const result = (await client.callTool(call)) as { isError?: boolean; content: { text?: string }[] };
  if (result.isError) throw new Error(`${call.name} failed: ${result.content[0]?.text}`);
}

/**
 * Calls per second with `inFlight` calls kept running at once; `sample` is
 * called once when half of them are done (the memory under load).
 */
async function callsPerSecond(
  client: Client,
  total: number,
  inFlight: number,
  next: (index: number) => { name: string; arguments: Record<string, unknown> },
  sample: () => void = () => {},
): Promise<number> {
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (issued < total) {
        const index = issued++;
        if (index === total >> 1) sample();
        await checked(client, next(index));
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/** Rounds of each measurement; the contenders take turns, so that a burst of other work on the machine lands on both. */
const rounds = 5;
const warmUpCalls = 1_500;
const lookupsPerRound = 2_000;
const scansPerRound = 12;

/** Ids spread over the whole table, a different one each call. */
function lookupId(index: number): number {
  return 1 + ((index * 7919) % tableRows);
}

/**
 * Runs both contenders and prints the table and the ratios (ours ÷ dbhub).
 * Every measurement is split into rounds that alternate between the two
 * (the machine is shared: one long stretch each let other work land on one
 * side only); each figure is the median of its rounds. PSS is the highest
 * of the samples taken in the middle of each round's lookups and scans.
 */
export async function compareWithDbhub(
  contenders: readonly [Contender, Contender],
  database: { port: number; table: string },
): Promise<void> {
  const databasePid = listenerPid(database.port);
  console.log(
    `load average at start: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  const colds: number[][] = contenders.map(() => []);
  for (let run = 0; run < 7; run++) {
    for (const [index, contender] of contenders.entries()) colds[index]?.push(await coldStartMs(contender));
  }
  const connected = await Promise.all(contenders.map((contender) => connect(contender)));
  const lookups: number[][] = contenders.map(() => []);
  // CPU spent on point lookups, by the server's process tree and by the database server, over every round.
  const lookupCpu = contenders.map(() => ({ calls: 0, serverMs: 0, databaseMs: 0 }));
  const scans: number[][] = contenders.map(() => []);
  const pssPeakKib = contenders.map(() => 0);
  for (const [index, contender] of contenders.entries()) {
    const { client } = connected[index] as Connected;
    // Warm both up the same way: connections open, code paths seen and optimised.
    await callsPerSecond(client, warmUpCalls, 8, (call) =>
      contender.call(pointLookupSql(database.table, lookupId(call))),
    );
    await checked(client, contender.call(scanSql(database.table, 1)));
  }
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the other contender, so that neither always follows the other.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const offset = warmUpCalls + round * lookupsPerRound;
    for (const index of order) {
      const contender = contenders[index] as Contender;
      const { client, pid } = connected[index] as Connected;
      const samplePss = () => {
        pssPeakKib[index] = Math.max(pssPeakKib[index] ?? 0, processTreeUsage(pid).pssKib);
      };
      const serverBefore = processTreeUsage(pid).cpuMs;
      const databaseBefore = databasePid === undefined ? new Map<number, number>() : databaseCpuByPid(databasePid);
      lookups[index]?.push(
        await callsPerSecond(
          client,
          lookupsPerRound,
          8,
          (call) => contender.call(pointLookupSql(database.table, lookupId(offset + call))),
          samplePss,
        ),
      );
      const spent = lookupCpu[index] as (typeof lookupCpu)[number];
      spent.calls += lookupsPerRound;
      spent.serverMs += processTreeUsage(pid).cpuMs - serverBefore;
      spent.databaseMs +=
        databasePid === undefined ? 0 : databaseCpuSpentMs(databaseBefore, databaseCpuByPid(databasePid));
      scans[index]?.push(
        await callsPerSecond(
          client,
          scansPerRound,
          1,
          (call) =>
            contender.call(
              scanSql(database.table, 1 + (((round * scansPerRound + call) * 4999) % (tableRows - scanRows))),
            ),
          samplePss,
        ),
      );
    }
  }
  const rows: string[][] = [];
  for (const [index, contender] of contenders.entries()) {
    const { client } = connected[index] as Connected;
    await client.close();
    const spent = lookupCpu[index] as (typeof lookupCpu)[number];
    const perCall = (ms: number) => ((ms * 1000) / spent.calls).toFixed(0);
    rows.push([
      contender.name,
      median(lookups[index] ?? []).toFixed(0),
      median(scans[index] ?? []).toFixed(1),
      median(colds[index] ?? []).toFixed(0),
      ((pssPeakKib[index] ?? 0) / 1024).toFixed(1),
      perCall(spent.serverMs),
      databasePid === undefined ? 'n/a' : perCall(spent.databaseMs),
    ]);
  }
  const header = [
    'server',
    'point lookups, 8 in flight (calls/s)',
    `${scanRows.toLocaleString('en')}-row scans (calls/s)`,
    'cold start to tools/list (ms)',
    'PSS of process tree under load, peak (MiB)',
    'server CPU per lookup (µs)',
    'database CPU per lookup (µs)',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const [ours = [], theirs = []] = rows.map((row) => row.slice(1).map(Number));
  const ratio = (index: number) => {
    const value = (ours[index] ?? 0) / (theirs[index] ?? 1);
    return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
  };
  console.log(
    `\nratios (server-sql ÷ dbhub): lookups ${ratio(0)}, scans ${ratio(1)}, cold start ${ratio(2)}, PSS ${ratio(3)}, ` +
      `CPU per lookup: server ${ratio(4)}, database ${ratio(5)}`,
  );
  const spread = (figures: number[][], digits: number) =>
    contenders
      .map(
        (contender, index) =>
          `${contender.name} ${(figures[index] ?? []).map((figure) => figure.toFixed(digits)).join(', ')}`,
      )
      .join('; ');
  const roundRatios = (figures: number[][]) =>
    (figures[0] ?? []).map((figure, round) => `${(figure / (figures[1]?.[round] ?? 1)).toFixed(2)}×`).join(', ');
  console.log(`rounds, point lookups (calls/s): ${spread(lookups, 0)}; ratio per round ${roundRatios(lookups)}`);
  console.log(`rounds, scans (calls/s): ${spread(scans, 1)}; ratio per round ${roundRatios(scans)}`);
  console.log(
    `load average at end: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
}
