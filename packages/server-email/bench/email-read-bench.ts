/**
 * One search and 20 reads on a 10,000-message Dovecot mailbox: the built
 * bin over stdio, driven by the official MCP SDK client (`search_messages`,
 * then `read_message` for each hit), against imapflow used directly in this
 * process doing the same IMAP work (bench/imapflow-mail-reader.ts), in one
 * run against the same Dovecot over IMAPS, taking turns round by round.
 *
 * Beside them, in the same turns, a bare stdio server doing the same IMAP
 * work (bench/imapflow-stdio-floor.ts: no engine, no checks, no fences)
 * driven by the same client: what a process of its own, stdio and the
 * client cost before anything of ours does.
 *
 * First it counts the IMAP commands, round trips and bytes each side sends
 * for a round, through a counting proxy on Dovecot's plain port
 * (bench/imap-command-counter.ts): the two must match. Then it times the
 * rounds and reports medians, the spread (p25–p75, p90), the ratio of the
 * medians and the median of the ratios of each round's pair, the CPU per
 * round of the bin (from /proc/<pid>/stat) and of this process, and the load
 * average.
 *
 *   pnpm --filter @toolshed/server-email build
 *   node packages/server-email/bench/email-read-bench.ts
 *
 * BENCH_ROUNDS (60), BENCH_MESSAGES (10,000); BENCH_CPU_PROF=<directory>
 * writes a CPU profile of the bin there; BENCH_BIN_NODE_ARGS adds Node
 * options to the bin and the bare server (`--perf-prof` for `perf record`).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDovecot } from '../src/__fixtures__/dovecot-server.ts';
import { benchSender, fillBenchMailbox } from './bench-mailbox.ts';
import { startImapCommandCounter, trafficLine } from './imap-command-counter.ts';
import { type ImapflowEndpoint, openImapflowMailReader } from './imapflow-mail-reader.ts';
import { processCpuSeconds, type StdioMcpClient, startStdioMcpClient } from './stdio-mcp-client.ts';

const messageCount = Number(process.env.BENCH_MESSAGES ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 60);
const cpuProfileDirectory = process.env.BENCH_CPU_PROF;
const binNodeArgs = (process.env.BENCH_BIN_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const reads = 20;
const bin = new URL('../bin/toolshed-email.js', import.meta.url).pathname;
const bareServer = new URL('./imapflow-stdio-floor.ts', import.meta.url).pathname;

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** The server's side of a round: the search, then a read of each hit; the messages read with a body. */
async function throughServer(server: StdioMcpClient, from: string): Promise<number> {
  const search = await server.call('search_messages', { from, limit: reads });
  const hits = (search.structuredContent as { messages: { uid: number }[] }).messages;
  let read = 0;
  for (const hit of hits) {
    const message = await server.call('read_message', { uid: hit.uid });
    if ((message.structuredContent as { body: string }).body !== '') read++;
  }
  return read;
}

if (!existsSync(new URL('../dist/toolshed-email.js', import.meta.url))) {
  throw new Error('Build the package first: pnpm --filter @toolshed/server-email build');
}
const dovecot = await startDovecot();
const scratch = mkdtempSync(join(tmpdir(), 'toolshed-email-read-'));
try {
  fillBenchMailbox(dovecot, messageCount);
  const caFile = join(scratch, 'ca.pem');
  writeFileSync(caFile, dovecot.ca);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    XDG_CONFIG_HOME: scratch,
    XDG_STATE_HOME: scratch,
    TOOLSHED_EMAIL_IMAP_PASSWORD: dovecot.password,
  };
  const login = { user: dovecot.user, password: dovecot.password };
  const startServer = (port: number, security: 'tls' | 'none', nodeArgs: readonly string[] = []) =>
    startStdioMcpClient({
      bin,
      args: [
        ...['--imap-host', '127.0.0.1', '--imap-port', String(port), '--imap-user', dovecot.user],
        ...(security === 'tls' ? ['--imap-ca', caFile] : ['--imap-security', 'none']),
        ...['--outbox', join(scratch, 'outbox')],
      ],
      env,
      nodeArgs,
    });

  // The IMAP each side sends: the first round (with the connection's set-up) and a round on the kept connection.
  const counter = await startImapCommandCounter(dovecot.imapPort);
  const plain: ImapflowEndpoint = { port: counter.port, ca: undefined, ...login };
  const traces: string[] = [];
  {
    counter.reset();
    const reader = await openImapflowMailReader(plain);
    await reader.searchAndRead(benchSender(0), reads);
    traces.push(`| imapflow, first round | ${trafficLine(counter.traffic())} |`);
    counter.reset();
    await reader.searchAndRead(benchSender(1), reads);
    traces.push(`| imapflow, next round | ${trafficLine(counter.traffic())} |`);
    await reader.close();
    const server = await startServer(counter.port, 'none');
    counter.reset();
    await throughServer(server, benchSender(0));
    traces.push(`| toolshed-email, first round | ${trafficLine(counter.traffic())} |`);
    counter.reset();
    await throughServer(server, benchSender(1));
    traces.push(`| toolshed-email, next round | ${trafficLine(counter.traffic())} |`);
    await server.close();
  }
  await counter.close();

  const reader = await openImapflowMailReader({ port: dovecot.imapsPort, ca: dovecot.ca, ...login });
  const server = await startServer(dovecot.imapsPort, 'tls', [
    ...binNodeArgs,
    ...(cpuProfileDirectory === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDirectory}`]),
  ]);
  const bare = await startStdioMcpClient({
    bin: bareServer,
    args: [String(dovecot.imapsPort), dovecot.user, caFile],
    env: { PATH: env.PATH, TOOLSHED_EMAIL_IMAP_PASSWORD: dovecot.password },
    nodeArgs: binNodeArgs,
  });
  // The first search builds Dovecot's caches and the servers' connections; all sides then run warm.
  const readByEach = [
    await reader.searchAndRead(benchSender(0), reads),
    await throughServer(server, benchSender(0)),
    await throughServer(bare, benchSender(0)),
  ];
  if (readByEach.some((count) => count !== reads)) throw new Error(`not ${reads} messages read: ${readByEach}`);
  const loadBefore = loadavg();
  const floorSamples: number[] = [];
  const serverSamples: number[] = [];
  const bareSamples: number[] = [];
  const cpu = { floor: 0, serverBin: 0, serverClient: 0, bareBin: 0, bareClient: 0 };
  for (let round = 0; round < rounds; round++) {
    const from = benchSender(round);
    const runFloor = async () => {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await reader.searchAndRead(from, reads);
      floorSamples.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.floor += (used.user + used.system) / 1e6;
    };
    const runStdio = (client: StdioMcpClient, samples: number[], side: 'server' | 'bare') => async () => {
      const binBefore = processCpuSeconds(client.pid);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await throughServer(client, from);
      samples.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu[`${side}Client`] += (used.user + used.system) / 1e6;
      cpu[`${side}Bin`] += processCpuSeconds(client.pid) - binBefore;
    };
    // Each side goes first, second and last in turn.
    const turns = [runFloor, runStdio(server, serverSamples, 'server'), runStdio(bare, bareSamples, 'bare')];
    for (let turn = 0; turn < turns.length; turn++) await turns[(round + turn) % turns.length]?.();
  }
  const loadAfter = loadavg();
  await server.close();
  await bare.close();
  await reader.close();

  const row = (name: string, samples: readonly number[], cpuMs: string) =>
    `| ${name} | ${percentile(samples, 0.5).toFixed(1)} | ${percentile(samples, 0.25).toFixed(1)}–${percentile(samples, 0.75).toFixed(1)} | ${percentile(samples, 0.9).toFixed(1)} | ${cpuMs} |`;
  const perRound = (seconds: number) => ((seconds * 1000) / rounds).toFixed(1);
  const ratios = (samples: readonly number[], anchor: readonly number[]) => {
    const pairs = samples.map((sample, index) => sample / (anchor[index] as number));
    return `${(percentile(samples, 0.5) / percentile(anchor, 0.5)).toFixed(2)}× (medians); ${percentile(pairs, 0.5).toFixed(2)}× (median of each round's pair, p25–p75 ${percentile(pairs, 0.25).toFixed(2)}–${percentile(pairs, 0.75).toFixed(2)})`;
  };
  console.log(
    `node ${process.version}, Dovecot, ${messageCount.toLocaleString('en')} messages in INBOX, ${rounds} rounds of 1 search + ${reads} reads each side, taking turns; load average ${loadBefore.map((load) => load.toFixed(2)).join(' ')} before, ${loadAfter.map((load) => load.toFixed(2)).join(' ')} after`,
  );
  console.log('');
  console.log('| IMAP per round | commands; round trips; bytes |');
  console.log('| --- | --- |');
  for (const line of traces) console.log(line);
  console.log('');
  console.log('| 1 search + 20 reads | p50 ms | p25–p75 ms | p90 ms | CPU ms per round |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  console.log(row('imapflow used directly, in process', floorSamples, perRound(cpu.floor)));
  console.log(
    row(
      'toolshed-email over stdio, SDK client',
      serverSamples,
      `${perRound(cpu.serverBin)} bin + ${perRound(cpu.serverClient)} client`,
    ),
  );
  console.log(
    row(
      'bare stdio server, same IMAP work, SDK client',
      bareSamples,
      `${perRound(cpu.bareBin)} server + ${perRound(cpu.bareClient)} client`,
    ),
  );
  console.log('');
  console.log(`server ÷ imapflow: ${ratios(serverSamples, floorSamples)}`);
  console.log(`bare stdio server ÷ imapflow: ${ratios(bareSamples, floorSamples)}`);
  console.log(`server ÷ bare stdio server: ${ratios(serverSamples, bareSamples)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await dovecot.stop();
}
