/**
 * The raw newline-JSON client the stdio benches drive servers with: a child
 * process per server, requests matched to answers by id, nothing validated
 * beyond what the benches check, so the client costs as little as it can.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { checkAnswer } from './check-answer.ts';
import { killOnExit } from './child-processes.ts';
import { type Era, initializeParams, modernMeta } from './protocol-eras.ts';

export interface StdioConnection {
  child: ChildProcessWithoutNullStreams;
  /** `params` may come serialized already, so the load generator spends its time waiting, not encoding. */
  request(method: string, params: Record<string, unknown> | string): Promise<unknown>;
  notify(method: string): void;
}

/**
 * Starts `script` (a path, or relative to this folder) with this Node and `env`; BENCH_NODE_ARGS passes flags
 * (say --cpu-prof).
 */
export function connectStdio(script: string, env: NodeJS.ProcessEnv = process.env): StdioConnection {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = killOnExit(
    spawn(process.execPath, [...nodeArgs, new URL(script, import.meta.url).pathname], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
    }),
  );
  const waiting = new Map<number, { resolve(message: unknown): void; reject(error: Error): void }>();
  let pending = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const message = JSON.parse(pending.slice(0, newline)) as { id?: number };
      pending = pending.slice(newline + 1);
      if (typeof message.id === 'number') {
        waiting.get(message.id)?.resolve(message);
        waiting.delete(message.id);
      }
      newline = pending.indexOf('\n');
    }
  });
  // A server that dies mid-run fails the bench instead of leaving it waiting forever.
  child.once('exit', (code, signal) => {
    for (const { reject } of waiting.values()) reject(new Error(`${script} exited (${code ?? signal}) mid-run`));
    waiting.clear();
  });
  child.stderr.resume();
  return {
    child,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const encoded = typeof params === 'string' ? params : JSON.stringify(params);
        child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${encoded}}\n`);
      });
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

export async function stopStdio(connection: StdioConnection): Promise<void> {
  const exited = new Promise((resolve) => connection.child.once('exit', resolve));
  connection.child.stdin.end();
  setTimeout(() => connection.child.kill('SIGKILL'), 2000).unref();
  await exited;
}

/**
 * The first exchange of each era: initialize (its result is the legacy cold
 * start), or server/discover, which a 2026-era client sends first to learn
 * what the server speaks (its result is the modern cold start).
 */
export async function openEra(connection: StdioConnection, era: Era): Promise<void> {
  if (era === 'legacy') {
    checkAnswer(await connection.request('initialize', initializeParams), era, 'initialize');
    connection.notify('notifications/initialized');
    return;
  }
  const discovered = checkAnswer(await connection.request('server/discover', { _meta: modernMeta }), era, 'discover');
  const versions = discovered.supportedVersions as unknown[] | undefined;
  if (!versions?.includes(modernMeta['io.modelcontextprotocol/protocolVersion'])) {
    throw new Error(`server/discover does not offer the 2026 revision: ${JSON.stringify(discovered).slice(0, 300)}`);
  }
}

export function residentKib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/**
 * CPU time a process has used so far, every thread of it (V8's compiler and
 * collector threads included), in milliseconds: the first field of each
 * thread's /proc schedstat, in nanoseconds, so short starts are measured
 * finer than the 10 ms ticks of /proc/<pid>/stat.
 */
export function cpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read: its time is gone with it.
    }
  }
  return nanoseconds / 1e6;
}
