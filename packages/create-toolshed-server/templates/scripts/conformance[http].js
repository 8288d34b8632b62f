// The official MCP conformance suite's server scenarios that apply to a tools-only server, run against the built
// bin over Streamable HTTP (`__RUN__ run build` first). Exits 1 when a check fails or warns.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnHttpServer } from '@toolshed/mcp-core/testing';

// The other scenarios call the tools, resources and prompts of the suite's own reference server.
const scenarios = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const require = createRequire(import.meta.url);
const suite = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
const bin = fileURLToPath(new URL('../bin/__BIN_NAME__.js', import.meta.url));
const server = await spawnHttpServer([bin, '--http', '127.0.0.1:0']);
try {
  for (const scenario of scenarios) {
    const output = mkdtempSync(join(tmpdir(), 'conformance-'));
    const args = [suite, 'server', '--url', server.url.href, '--scenario', scenario, '-o', output];
    const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
    const failed = readdirSync(output, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.endsWith('checks.json'))
      .flatMap((entry) => JSON.parse(readFileSync(join(output, entry), 'utf8')))
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    if (run.status !== 0 || failed.length > 0) process.exitCode = 1;
  }
} finally {
  await server.stop();
}
