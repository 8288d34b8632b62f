import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '@toolshed/mcp-core/testing';

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

/**
 * A pinned release of the official suite and how to run it: 0.1.16 with
 * `--suite all`, or the alpha with `--requirements <revision>`, which runs one
 * protocol revision's frozen scenario set at that revision's wire.
 */
export type ConformanceSuite =
  | { kind: 'all' }
  | { kind: 'requirements'; revision: '2025-11-25' | '2026-07-28' }
  /** One scenario of the alpha by name: for the extensions' scenarios, which no requirement set scores. */
  | { kind: 'scenario'; name: string };

function suitePackage(suite: ConformanceSuite): string {
  return suite.kind === 'all' ? '@modelcontextprotocol/conformance' : '@modelcontextprotocol/conformance-alpha';
}

/** The server scenarios a revision's requirement set scores; the suite also runs and reports others that never count. */
export function scoredScenarios(revision: string): string[] {
  const require = createRequire(join(appDirectory, 'package.json'));
  const root = dirname(require.resolve('@modelcontextprotocol/conformance-alpha/package.json'));
  const lines = readFileSync(join(root, 'requirements', `${revision}.yaml`), 'utf8').split('\n');
  const start = lines.indexOf('server:');
  const scenarios: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = /^ {2}- ([\w/-]+)\s*$/.exec(line);
    if (item === null) break;
    scenarios.push(item[1] as string);
  }
  return scenarios;
}

/**
 * The tasks extension's scenarios (`io.modelcontextprotocol/tasks`) that run
 * in the alpha; its tenth, `tasks-status-notifications`, only reports itself
 * skipped until the suite can listen for them.
 */
export const tasksScenarios: readonly string[] = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/** Runs a pinned official suite against the URL and reads every scenario's checks. */
export async function runConformance(url: string, suite: ConformanceSuite = { kind: 'all' }): Promise<ConformanceRun> {
  const require = createRequire(join(appDirectory, 'package.json'));
  const packageJson = require.resolve(`${suitePackage(suite)}/package.json`);
  const cli = join(dirname(packageJson), 'dist', 'index.js');
  const outputDir = mkdtempSync(join(tmpdir(), 'conformance-'));
  const selection =
    suite.kind === 'all'
      ? ['--suite', 'all']
      : suite.kind === 'scenario'
        ? ['--scenario', suite.name]
        : ['--requirements', suite.revision];
  const child = spawn(process.execPath, [cli, 'server', '--url', url, ...selection, '-o', outputDir], {
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
  const fixture = await startFixture(await freeLoopbackPort());
  const suites: ConformanceSuite[] = [
    { kind: 'all' },
    { kind: 'requirements', revision: '2025-11-25' },
    { kind: 'requirements', revision: '2026-07-28' },
    ...tasksScenarios.map((name) => ({ kind: 'scenario' as const, name })),
  ];
  const titles = (suite: ConformanceSuite) =>
    suite.kind === 'all'
      ? '0.1.16 --suite all'
      : suite.kind === 'scenario'
        ? `alpha --scenario ${suite.name}`
        : `alpha --requirements ${suite.revision}`;
  for (const suite of suites) {
    const run = await runConformance(fixture.url, suite);
    process.stdout.write(`${titles(suite)}\n`);
    process.stdout.write(`${run.output.slice(run.output.lastIndexOf('Total:'))}\n`);
    if (run.exitCode !== 0) process.exitCode = 1;
  }
  await fixture.stop();
}
