import { spawn, spawnSync } from 'node:child_process';

/** A bin as its users start it: a script run with this Node, and what it needs to start. */
export interface BinUnderTest {
  /** The script and the arguments without which it cannot start (a database, a directory). */
  bin: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** How long a bin may take to answer or to exit in these checks: a guard against a hang, not a speed bar. */
const hangGuardMs = 60_000;

function run(target: BinUnderTest, args: readonly string[]) {
  return spawnSync(process.execPath, [...target.bin, ...args], {
    encoding: 'utf8',
    input: '',
    env: target.env ?? process.env,
    timeout: hangGuardMs,
  });
}

/** Sends the opening messages of both eras over stdio, closes stdin, and reads everything the bin wrote. */
function converse(target: BinUnderTest): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...target.bin], { env: target.env ?? process.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), hangGuardMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // Both answers are in: the bin must now end when its client goes.
      if (stdout.split('\n').filter((line) => line.trim() !== '').length >= 2) child.stdin.end();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } })}\n`,
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'check-bin', version: '1' } } })}\n`,
    );
  });
}

/**
 * The checks every bin passes, as a list of what failed (empty when all
 * pass), so any test runner can assert on it: `--help` and `--version` exit 0
 * and say something; an unknown flag exits 2 with one line and no stack
 * trace; over stdio the bin answers `server/discover` and `initialize` with
 * nothing but JSON-RPC on stdout, and exits 0 when its client closes stdin.
 *
 * @example
 * expect(await checkBin({ bin: [binPath, '--db', dbPath] })).toEqual([]);
 */
export async function checkBin(target: BinUnderTest): Promise<string[]> {
  const problems: string[] = [];
  const help = run(target, ['--help']);
  if (help.status !== 0) problems.push(`--help exited ${help.status}`);
  if (!/--http/.test(help.stdout)) problems.push('--help does not list --http');
  const version = run(target, ['--version']);
  if (version.status !== 0 || !/\d+\.\d+\.\d+/.test(version.stdout)) {
    problems.push(`--version exited ${version.status} with ${JSON.stringify(version.stdout.slice(0, 80))}`);
  }
  const unknown = run(target, ['--no-such-flag']);
  const lines = unknown.stderr.trim().split('\n');
  if (unknown.status !== 2) problems.push(`an unknown flag exited ${unknown.status}, not 2`);
  if (lines.length !== 1) problems.push(`an unknown flag printed ${lines.length} lines on stderr, not one`);
  if (/^\s+at /m.test(unknown.stderr)) problems.push('an unknown flag printed a stack trace');
  const talk = await converse(target);
  if (talk.code !== 0) problems.push(`over stdio the bin exited ${talk.code} when stdin closed, not 0`);
  const byId = new Map<unknown, { result?: Record<string, unknown> }>();
  for (const line of talk.stdout.split('\n').filter((text) => text.trim() !== '')) {
    let message: { jsonrpc?: unknown; id?: unknown; result?: Record<string, unknown> } | undefined;
    try {
      message = JSON.parse(line);
    } catch {
      problems.push(`stdout carried something other than JSON-RPC: ${JSON.stringify(line.slice(0, 80))}`);
      continue;
    }
    if (message?.jsonrpc !== '2.0') problems.push(`stdout carried a non-JSON-RPC message: ${line.slice(0, 80)}`);
    else byId.set(message.id, message);
  }
  if (byId.get(1)?.result?.resultType !== 'complete') problems.push('server/discover was not answered with a result');
  if (byId.get(2)?.result?.protocolVersion !== '2025-11-25')
    problems.push('initialize was not answered with 2025-11-25');
  return problems;
}
