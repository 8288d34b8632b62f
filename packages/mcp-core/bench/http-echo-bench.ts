/**
 * Echo over Streamable HTTP, in both protocol eras, each server in its own
 * process, driven by the same minimal keep-alive HTTP client (one socket per
 * client, raw framing; see raw-http-client.ts) in the same run:
 *
 * - legacy era (2025-11-25): each client opens a session with initialize,
 *   then calls; Toolshed's serveHttp against the official SDK v1
 *   StreamableHTTPServerTransport and the SDK v2 node transport;
 * - modern era (2026-07-28): no session, every POST carries `_meta` and the
 *   MCP-Protocol-Version / Mcp-Method / Mcp-Name headers; the same serveHttp
 *   endpoint against the SDK v2 createMcpHandler (SDK v1 has no such era).
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *
 * For each response form (JSON, SSE) and each load (1 client, 32 clients,
 * one call in flight each): tools/call per second over BENCH_HTTP_SECONDS
 * (default 3) per server after a warm-up, cut into BENCH_HTTP_ROUNDS (default
 * 3) rounds that alternate between the servers (the median round is the
 * figure), and p50/p99 latency. In the modern era SSE is asked for the way a
 * 2026 client asks, by accepting only text/event-stream; the SDK v2 handler,
 * which does not look at Accept, is set to stream (MODE=sse).
 * Every answer is checked; an error or a wrongly shaped answer stops the run
 * with a non-zero exit. BENCH_ERAS=legacy|modern runs one era only.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { keepBusy } from './busy-callers.ts';
import { checkEchoAnswer } from './check-answer.ts';
import { killOnExit } from './child-processes.ts';
import {
  type Era,
  eraLabels,
  initializeParams,
  legacyProtocolVersion,
  modernHeaders,
  modernMeta,
  selectedEras,
} from './protocol-eras.ts';
import { type RawAnswer, RawHttpClient } from './raw-http-client.ts';
import { RoundRecorder, type RoundSummary } from './round-summary.ts';

interface BenchServer {
  name: string;
  /** Absent: the server has no such era, shown as n/a. */
  script?: string;
}

const serversByEra: Record<Era, readonly BenchServer[]> = {
  legacy: [
    { name: 'mcp-core serveHttp', script: 'servers/http-toolshed.mjs' },
    { name: 'SDK v1 StreamableHTTPServerTransport', script: 'servers/http-sdk-v1.mjs' },
    { name: 'SDK v2 NodeStreamableHTTPServerTransport', script: 'servers/http-sdk-v2.mjs' },
  ],
  modern: [
    { name: 'mcp-core serveHttp', script: 'servers/http-toolshed.mjs' },
    { name: 'SDK v1 (no 2026-07-28 era)' },
    { name: 'SDK v2 createMcpHandler', script: 'servers/http-sdk-v2-modern.mjs' },
  ],
};
/** The server every other one is compared with, and the bar it has to clear. */
const reference = { name: 'SDK v2', bar: 2 };
const modes = ['json', 'sse'] as const;
type Mode = (typeof modes)[number];
const loads = [1, 32] as const;
const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const warmUpMs = 500;
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

async function start(script: string, mode: Mode): Promise<{ stop(): void; url: URL }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = killOnExit(
    spawn(process.execPath, [...nodeArgs, new URL(script, import.meta.url).pathname], {
      env: { ...process.env, MODE: mode },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const found = /READY (\S+)/.exec(chunk);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  // Profiling runs stop with SIGINT so the profile is written.
  return { url: new URL(url), stop: () => child.kill(nodeArgs.length > 0 ? 'SIGINT' : 'SIGKILL') };
}

function failing(what: string) {
  return (error: unknown): never => {
    throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
  };
}

/** The JSON-RPC message an answer carries, from a JSON body or from the `data:` lines of an SSE body. */
function messageOf(answer: RawAnswer, mode: Mode, id: number): unknown {
  const contentType = /\r\ncontent-type: *([^\r;]+)/i.exec(answer.head)?.[1]?.trim();
  const expected = mode === 'sse' ? 'text/event-stream' : 'application/json';
  if (answer.status !== 200 || contentType !== expected) {
    throw new Error(`expected 200 ${expected}, got ${answer.status} ${contentType}: ${answer.body.slice(0, 300)}`);
  }
  if (mode === 'json') return JSON.parse(answer.body);
  for (const line of answer.body.split('\n')) {
    // Event-store priming events carry an empty data line.
    if (!line.startsWith('data:') || line.slice(5).trim() === '') continue;
    const message = JSON.parse(line.slice(5)) as { id?: unknown };
    if (message.id === id) return message;
  }
  throw new Error(`no answer to request ${id} in the stream: ${answer.body.slice(0, 300)}`);
}

interface Caller {
  client: RawHttpClient;
  call(id: number): Promise<void>;
}

/** A 2025-era client: its own session, opened with initialize, then calls carrying the session id. */
async function openLegacyCaller(url: URL, mode: Mode): Promise<Caller> {
  const client = await RawHttpClient.open(url);
  const init = await client.post(
    {},
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initializeParams }),
  );
  const sessionId = /\r\nmcp-session-id: *([^\r]+)/i.exec(init.head)?.[1];
  if (sessionId === undefined) throw new Error(`no session: ${init.status} ${init.body.slice(0, 300)}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': legacyProtocolVersion };
  await client.post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const params = JSON.stringify({ name: 'echo', arguments: { text } });
  return {
    client,
    async call(id) {
      const answer = await client.post(
        headers,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
      );
      checkEchoAnswer(messageOf(answer, mode, id), 'legacy', text, 'legacy tools/call');
    },
  };
}

/**
 * A 2026-era client: no handshake and no session; every POST carries `_meta`
 * and mirrors it into headers. SSE is asked for the way this era lets a
 * client ask for it, by accepting nothing else.
 */
async function openModernCaller(url: URL, mode: Mode): Promise<Caller> {
  const client = await RawHttpClient.open(url);
  const headers = modernHeaders('tools/call', 'echo');
  if (mode === 'sse') headers.accept = 'text/event-stream';
  const params = JSON.stringify({ name: 'echo', arguments: { text }, _meta: modernMeta });
  return {
    client,
    async call(id) {
      const answer = await client.post(
        headers,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
      );
      checkEchoAnswer(messageOf(answer, mode, id), 'modern', text, 'modern tools/call');
    },
  };
}

const runEras = selectedEras();
const results = new Map<string, RoundSummary>();
const key = (era: Era, mode: Mode, clients: number, server: BenchServer) => `${era}|${mode}|${clients}|${server.name}`;
const describe = (era: Era, mode: Mode, clients: number, server: BenchServer) =>
  `${server.name}, ${era} era, ${mode}, ${clients} clients`;
for (const era of runEras) {
  const servers = serversByEra[era].filter((server) => server.script !== undefined);
  for (const mode of modes) {
    // Every server of the era runs at once, idle but for its turn, so that rounds can alternate between them.
    const started = await Promise.all(servers.map((server) => start(server.script as string, mode)));
    try {
      for (const clients of loads) {
        const ids = { next: 1 };
        const cells = [];
        for (const [index, server] of servers.entries()) {
          const url = (started[index] as { url: URL }).url;
          const what = describe(era, mode, clients, server);
          const open = era === 'legacy' ? openLegacyCaller : openModernCaller;
          const callers = await Promise.all(Array.from({ length: clients }, () => open(url, mode))).catch(
            failing(what),
          );
          // One checked call before any clock starts: a server that cannot answer this era fails here.
          await callers[0]?.call(ids.next++).catch(failing(what));
          await keepBusy(callers, warmUpMs, ids).catch(failing(what));
          cells.push({ server, what, callers, recorder: new RoundRecorder() });
        }
        for (let round = 0; round < rounds; round++) {
          for (const cell of cells) {
            const ran = await keepBusy(cell.callers, (seconds * 1000) / rounds, ids).catch(failing(cell.what));
            cell.recorder.add(ran.calls, ran.seconds, ran.latencies);
          }
        }
        for (const cell of cells) {
          for (const caller of cell.callers) caller.client.close();
          results.set(key(era, mode, clients, cell.server), cell.recorder.summary());
        }
      }
    } finally {
      for (const server of started) server.stop();
    }
  }
}

console.log(
  `Streamable HTTP echo, tools/call, ${seconds} s per cell in ${rounds} rounds taken in turn (calls/s: median round), Node ${process.version}`,
);
const misses: string[] = [];
for (const era of runEras) {
  const servers = serversByEra[era];
  const [ours] = servers;
  const target = servers.find((server) => server.name.startsWith(reference.name));
  console.log(`\n${eraLabels[era]}\n`);
  console.log('| response | clients | server | calls/s | p50 ms | p99 ms | mcp-core ÷ this |');
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const mode of modes) {
    for (const clients of loads) {
      const our = ours === undefined ? undefined : results.get(key(era, mode, clients, ours));
      for (const server of servers) {
        const cell = `| ${mode.toUpperCase()} | ${clients} | ${server.name} |`;
        const row = results.get(key(era, mode, clients, server));
        if (row === undefined || our === undefined) {
          console.log(`${cell} n/a | n/a | n/a | n/a |`);
          continue;
        }
        const ratio = our.callsPerSecond / row.callsPerSecond;
        const shown = server === ours ? '—' : `${ratio.toFixed(2)}×`;
        if (server === target && ratio < reference.bar) {
          misses.push(`${era} ${mode.toUpperCase()} ${clients} clients: ${ratio.toFixed(2)}×`);
        }
        console.log(
          `${cell} ${Math.round(row.callsPerSecond)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${shown}${server === target && ratio < reference.bar ? ' ✗' : ''} |`,
        );
      }
    }
  }
}
console.log(
  misses.length === 0
    ? `\nmcp-core ≥ ${reference.bar}× ${reference.name} in every cell.`
    : `\nBelow ${reference.bar}× ${reference.name}: ${misses.join('; ')}`,
);
