/**
 * The same tool call three ways, in one run: on the server directly over an
 * in-memory connection, through the host to the same server mounted in
 * process, and through the host to a stdio child. Reports the median and
 * p99 per call and the ratios to the direct call. The host runs as it ships:
 * audit log on, approval and rate checks in the path.
 *
 *   pnpm --filter @toolshed/host bench
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryTransportPair, type JsonRpcMessage, type McpServer } from '@toolshed/mcp-core';
import { createFilesystemServer } from '@toolshed/server-filesystem';
import { createHost, parseHostConfig } from '../src/index.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-host-bench-'));
const workspace = join(directory, 'workspace');
const { mkdirSync } = await import('node:fs');
mkdirSync(workspace);
writeFileSync(join(workspace, 'notes.md'), `${'A line of notes for the benchmark.\n'.repeat(200)}`);
const filesystemBin = new URL('../../../packages/server-filesystem/src/cli.ts', import.meta.url).pathname;

async function connect(server: McpServer): Promise<(name: string, args: Record<string, unknown>) => Promise<void>> {
  const [client, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const pending = new Map<number, (message: JsonRpcMessage) => void>();
  client.onmessage = (message) => {
    const id = (message as { id?: number }).id;
    if (id !== undefined) pending.get(id)?.(message as JsonRpcMessage);
    pending.delete(id as number);
  };
  await client.start();
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<JsonRpcMessage>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, params });
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return async (name, args) => {
    const response = (await request('tools/call', { name, arguments: args })) as { result?: { isError?: boolean } };
    if (response.result === undefined || response.result.isError === true) throw new Error(JSON.stringify(response));
  };
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const direct = await connect(createFilesystemServer({ directories: [workspace] }));
const config = parseHostConfig(
  JSON.stringify({
    toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
    mcpServers: {
      '@toolshed/server-filesystem': { directories: [workspace] },
      child: { command: process.execPath, args: [filesystemBin, workspace] },
    },
  }),
  join(directory, 'toolshed.json'),
);
const host = createHost(config, { log: () => {} });
await host.start();
const viaHost = await connect(host.server);

const path = join(workspace, 'notes.md');
const ways: [string, () => Promise<void>][] = [
  ['direct (in-memory)', () => direct('read_text_file', { path })],
  ['host → in process', () => viaHost('filesystem_read_text_file', { path })],
  ['host → stdio child', () => viaHost('child_read_text_file', { path })],
];
const calls = 3000;
const samples = new Map<string, number[]>(ways.map(([name]) => [name, []]));
for (const [, once] of ways) for (let warm = 0; warm < 300; warm++) await once();
// Round-robin, so that all three see the same machine state.
for (let index = 0; index < calls; index++) {
  for (const [name, once] of ways) {
    const started = performance.now();
    await once();
    samples.get(name)?.push(performance.now() - started);
  }
}
const baseline = percentile(samples.get('direct (in-memory)') ?? [], 0.5);
console.log(`node ${process.version}; read_text_file of a 7 kB file, ${calls} calls each, interleaved`);
console.log('');
console.log('| path | median | p99 | ratio to direct (median) |');
console.log('|---|---:|---:|---:|');
for (const [name] of ways) {
  const values = samples.get(name) ?? [];
  const median = percentile(values, 0.5);
  console.log(
    `| ${name} | ${(median * 1000).toFixed(0)} µs | ${(percentile(values, 0.99) * 1000).toFixed(0)} µs | ${(median / baseline).toFixed(2)}× |`,
  );
}
await host.close();
rmSync(directory, { recursive: true, force: true });
