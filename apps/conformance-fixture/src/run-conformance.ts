import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ScenarioOutcome {
  scenario: string;
  failures: number;
  warnings: number;
}

export interface ConformanceRun {
  exitCode: number | null;
  output: string;
  scenarios: ScenarioOutcome[];
}

const appDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A port nobody is listening on right now, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the fixture the way the suite's contract says: its start script, PORT in the environment. */
export async function startFixture(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: appDirectory,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs the pinned official suite (`server --suite all`) and reads every scenario's checks. */
export async function runConformance(url: string): Promise<ConformanceRun> {
  const require = createRequire(join(appDirectory, 'package.json'));
  const packageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
  const cli = join(dirname(packageJson), 'dist', 'index.js');
  const outputDir = mkdtempSync(join(tmpdir(), 'conformance-'));
  const child = spawn(process.execPath, [cli, 'server', '--url', url, '--suite', 'all', '-o', outputDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const scenarios: ScenarioOutcome[] = [];
  for (const entry of readdirSync(outputDir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('checks.json')) continue;
    const checks = JSON.parse(readFileSync(join(outputDir, entry), 'utf8')) as { status: string }[];
    scenarios.push({
      scenario: dirname(entry)
        .replace(/^server-/, '')
        .replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''),
      failures: checks.filter((check) => check.status === 'FAILURE').length,
      warnings: checks.filter((check) => check.status === 'WARNING').length,
    });
  }
  return { exitCode, output, scenarios };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixture = await startFixture(await freePort());
  const run = await runConformance(fixture.url);
  await fixture.stop();
  process.stdout.write(run.output.slice(run.output.indexOf('=== SUMMARY ===')));
  process.exitCode = run.exitCode ?? 1;
}
