/**
 * Echo over Streamable HTTP: Toolshed's serveHttp against the official SDK v1
 * StreamableHTTPServerTransport and the SDK v2 node adapter, each in its own
 * process, driven by the same minimal keep-alive HTTP client (one socket
 * per client, raw framing; see raw-http-client.ts) in the same run.
 *
 *   pnpm --filter @toolshed/mcp-core bench       (after pnpm build)
 *
 * For each response form (JSON, SSE) and each load (1 client, 32 clients,
 * each with its own session and one call in flight): tools/call per second
 * over BENCH_HTTP_SECONDS (default 3) after a warm-up, and p50/p99 latency.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { RawHttpClient } from './raw-http-client.ts';

const servers = [
  { name: 'mcp-core serveHttp', script: 'servers/http-toolshed.mjs' },
  { name: 'SDK v1 StreamableHTTPServerTransport', script: 'servers/http-sdk-v1.mjs' },
  { name: 'SDK v2 NodeStreamableHTTPServerTransport', script: 'servers/http-sdk-v2.mjs' },
] as const;
const modes = ['json', 'sse'] as const;
const loads = [1, 32] as const;
const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('Build first: pnpm --filter @toolshed/mcp-core build');
  process.exit(2);
}

async function start(script: string, mode: string): Promise<{ child: ChildProcess; url: URL }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, new URL(script, import.meta.url).pathname], {
    env: { ...process.env, MODE: mode },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const found = /READY (\S+)/.exec(chunk);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, url: new URL(url) };
}

async function openSession(url: URL): Promise<{ client: RawHttpClient; headers: Record<string, string> }> {
  const client = await RawHttpClient.open(url);
  const init = await client.post(
    {},
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
    }),
  );
  const sessionId = /\r\nmcp-session-id: *([^\r]+)/i.exec(init.head)?.[1];
  if (sessionId === undefined) throw new Error(`no session: ${init.status} ${init.body}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  await client.post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { client, headers };
}

interface Measure {
  callsPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(url: URL, clients: number): Promise<Measure> {
  const sessions = await Promise.all(Array.from({ length: clients }, () => openSession(url)));
  let recording = false;
  let stop = false;
  const latencies: number[] = [];
  let nextId = 1;
  const loop = async ({
    client,
    headers,
  }: {
    client: RawHttpClient;
    headers: Record<string, string>;
  }): Promise<void> => {
    while (!stop) {
      const id = nextId++;
      const started = performance.now();
      const answer = await client.post(
        headers,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(text)}}}}`,
      );
      if (answer.status !== 200 || !answer.body.includes('"result"')) {
        throw new Error(`bad answer ${answer.status}: ${answer.body.slice(0, 200)}`);
      }
      if (recording) latencies.push(performance.now() - started);
    }
  };
  const running = Promise.all(sessions.map((session) => loop(session)));
  await new Promise((resolve) => setTimeout(resolve, 500));
  recording = true;
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  const elapsed = (performance.now() - began) / 1000;
  const done = latencies.length;
  stop = true;
  await running;
  for (const session of sessions) session.client.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { callsPerSecond: done / elapsed, p50: at(0.5), p99: at(0.99) };
}

const results = new Map<string, Measure>();
for (const mode of modes) {
  for (const clients of loads) {
    for (const server of servers) {
      const { child, url } = await start(server.script, mode);
      try {
        results.set(`${server.name}|${mode}|${clients}`, await measure(url, clients));
      } finally {
        child.kill(process.env.BENCH_NODE_ARGS ? 'SIGINT' : 'SIGKILL');
      }
    }
  }
}

const rows: string[] = [];
rows.push('| response | clients | server | calls/s | p50 ms | p99 ms | mcp-core ÷ this |');
rows.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
for (const mode of modes) {
  for (const clients of loads) {
    const ours = results.get(`${servers[0].name}|${mode}|${clients}`);
    for (const server of servers) {
      const row = results.get(`${server.name}|${mode}|${clients}`);
      if (row === undefined || ours === undefined) continue;
      const ratio = server === servers[0] ? '—' : `${(ours.callsPerSecond / row.callsPerSecond).toFixed(2)}×`;
      rows.push(
        `| ${mode.toUpperCase()} | ${clients} | ${server.name} | ${Math.round(row.callsPerSecond)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${ratio} |`,
      );
    }
  }
}
console.log(`Streamable HTTP echo, tools/call, ${seconds} s per cell, Node ${process.version}\n`);
console.log(rows.join('\n'));
