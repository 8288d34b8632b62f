/**
 * The same tool call three ways, in one run: on the server directly over an
 * in-memory connection, through the host to the same server mounted in
 * process, and through the host to a stdio child. Reports the median and
 * p99 per call and the ratios to the direct call. The host runs as it ships:
 * audit log on, approval and rate checks in the path.
 *
 *   pnpm --filter @toolshed/host bench
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBareClient } from '@toolshed/mcp-core/testing';
import { createFilesystemServer } from '@toolshed/server-filesystem';
import { createHost, parseHostConfig } from '../src/index.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-host-bench-'));
const workspace = join(directory, 'workspace');
mkdirSync(workspace);
writeFileSync(join(workspace, 'notes.md'), `${'A line of notes for the benchmark.\n'.repeat(200)}`);
const filesystemBin = new URL('../../../packages/server-filesystem/src/cli.ts', import.meta.url).pathname;

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const direct = await connectBareClient(createFilesystemServer({ directories: [workspace] }));
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
const viaHost = await connectBareClient(host.server);

const path = join(workspace, 'notes.md');
const ways: [string, () => Promise<unknown>][] = [
  ['direct (in-memory)', () => direct.callTool('read_text_file', { path })],
  ['host → in process', () => viaHost.callTool('filesystem_read_text_file', { path })],
  ['host → stdio child', () => viaHost.callTool('child_read_text_file', { path })],
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
