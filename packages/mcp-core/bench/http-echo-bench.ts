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
 * (default 3) after a warm-up, and p50/p99 latency. Every answer is checked;
 * an error or a wrongly shaped answer stops the run with a non-zero exit.
 * BENCH_ERAS=legacy|modern runs one era only.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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

interface Measure {
  callsPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(url: URL, era: Era, mode: Mode, clients: number): Promise<Measure> {
  const open = era === 'legacy' ? openLegacyCaller : openModernCaller;
  const callers = await Promise.all(Array.from({ length: clients }, () => open(url, mode)));
  let nextId = 1;
  // One checked call before the clock starts: a server that cannot answer this era fails here, not mid-table.
  await callers[0]?.call(nextId++);
  let recording = false;
  let stop = false;
  let failure: unknown;
  const latencies: number[] = [];
  const loop = async (caller: Caller): Promise<void> => {
    while (!stop) {
      const started = performance.now();
      await caller.call(nextId++);
      if (recording) latencies.push(performance.now() - started);
    }
  };
  const running = Promise.all(
    callers.map((caller) =>
      loop(caller).catch((error: unknown) => {
        failure ??= error;
        stop = true;
      }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  recording = true;
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  const elapsed = (performance.now() - began) / 1000;
  const done = latencies.length;
  stop = true;
  await running;
  for (const caller of callers) caller.client.close();
  if (failure !== undefined) throw failure;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { callsPerSecond: done / elapsed, p50: at(0.5), p99: at(0.99) };
}

const runEras = selectedEras();
const results = new Map<string, Measure>();
const key = (era: Era, mode: Mode, clients: number, server: BenchServer) => `${era}|${mode}|${clients}|${server.name}`;
for (const era of runEras) {
  for (const mode of modes) {
    for (const clients of loads) {
      for (const server of serversByEra[era]) {
        if (server.script === undefined) continue;
        const { stop, url } = await start(server.script, mode);
        try {
          results.set(key(era, mode, clients, server), await measure(url, era, mode, clients));
        } catch (error) {
          throw new Error(`${server.name}, ${era} era, ${mode}, ${clients} clients: ${(error as Error).message}`, {
            cause: error,
          });
        } finally {
          stop();
        }
      }
    }
  }
}

console.log(`Streamable HTTP echo, tools/call, ${seconds} s per cell, Node ${process.version}`);
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
