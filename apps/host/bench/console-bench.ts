/**
 * How fast the console's pages answer with a 10,000-line audit log: logs in
 * over HTTP as a browser would, then loads each page many times and reports
 * the median, p95 and worst time per page, the first load of the audit page
 * (which reads the state store's audit table) on its own. The bar: every page under 100 ms.
 *
 *   node bench/console-bench.ts [lines]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHostConfig } from '../src/config/load-config.ts';
import { serveConsole } from '../src/console/console-server.ts';
import { createTokenStore } from '../src/console/console-token-store.ts';
import { createHost } from '../src/create-host.ts';

const lines = Number(process.argv[2] ?? 10_000);
const rounds = 50;
const directory = mkdtempSync(join(tmpdir(), 'toolshed-console-bench-'));
const workspace = join(directory, 'workspace');
mkdirSync(workspace);
const auditPath = join(directory, 'audit.jsonl');
const servers = ['sql', 'files', 'image', 'email', 'weather'];
const outcomes = ['ok', 'ok', 'ok', 'tool_error', 'error', 'refused', 'timeout'];
const host = createHost(
  parseHostConfig(
    JSON.stringify({
      toolshed: { audit: { path: auditPath } },
      mcpServers: { '@toolshed/server-filesystem': { directories: [workspace] } },
    }),
    join(directory, 'toolshed.json'),
  ),
  { log: () => {}, state: join(directory, 'state.db') },
);
await host.start();
// The audit record as the console reads it: rows in the state store, written as calls write them.
const audit = host.store().audit;
await Promise.all(
  Array.from({ length: lines }, async (_, index) => {
    const server = servers[index % servers.length] as string;
    const id = `bench-${index}`;
    await audit.begin({
      id,
      time: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString(),
      caller: `client-${index % 7}/1.0`,
      server,
      tool: `${server}_tool_${index % 4}`,
      upstream_tool: `tool_${index % 4}`,
      arguments_sha256: index.toString(16).padStart(64, '0'),
      approval: 'not_required',
    });
    await audit.complete(id, {
      approval: 'not_required',
      duration_ms: index % 250,
      outcome: outcomes[index % outcomes.length] as 'ok',
      ...(index % 5 === 4 ? { error: 'the upstream said no, at some length, as errors do' } : {}),
    });
  }),
);
const tokens = createTokenStore(host.store);
const { secret } = await tokens.create('bench', 'bench');
const consoleServer = await serveConsole({ host, tokens });
const base = consoleServer.url;
const origin = base.replace(/\/$/, '');

const loginPage = await fetch(`${base}login`);
const loginCookie = (loginPage.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
const loginCsrf = loginCookie.split('=')[1] ?? '';
const login = await fetch(`${base}login`, {
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: loginCookie },
  body: new URLSearchParams({ csrf: loginCsrf, token: secret }).toString(),
});
const cookie = (login.headers.getSetCookie().find((line) => line.startsWith('toolshed_console=')) ?? '').split(';')[0];
if (cookie === undefined || cookie === '') throw new Error(`login failed: ${login.status}`);

async function load(path: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie } });
  await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return elapsed;
}

const firstAudit = await load('audit');
const pages = [
  'servers',
  'try',
  'try/filesystem_edit_file',
  'approvals',
  'tokens',
  'audit',
  'audit?page=100',
  'audit?server=files&outcome=error',
  'audit?tool=tool_3&from=2026-11-01T01:00&to=2026-11-01T02:00',
];
const rows: string[] = [];
let worst = firstAudit;
for (const path of pages) {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) samples.push(await load(path));
  samples.sort((left, right) => left - right);
  const median = samples[Math.floor(samples.length / 2)] as number;
  const p95 = samples[Math.floor(samples.length * 0.95)] as number;
  const max = samples.at(-1) as number;
  worst = Math.max(worst, max);
  rows.push(`| \`/${path}\` | ${median.toFixed(1)} | ${p95.toFixed(1)} | ${max.toFixed(1)} |`);
}
process.stdout.write(
  `Console pages with ${lines.toLocaleString('en')} audit lines, ${rounds} loads each (ms):\n\n` +
    `| page | median | p95 | max |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n\n` +
    `first load of /audit (reads the store): ${firstAudit.toFixed(1)} ms; slowest of all: ${worst.toFixed(1)} ms — ` +
    `${worst < 100 ? 'under' : 'OVER'} the 100 ms bar\n`,
);
await consoleServer.close();
await host.close();
rmSync(directory, { recursive: true, force: true });
