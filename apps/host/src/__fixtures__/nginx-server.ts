import { spawn } from 'node:child_process';
import { chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { childExited, freeLoopbackPort, loopbackPortAnswers, unprivilegedIds } from '@toolshed/mcp-core/testing';
import {
  type NginxAccessEntry,
  type NginxReplica,
  nginxLoadBalancerConfig,
  parseNginxAccessLog,
} from './nginx-load-balancer-config.ts';

/** Where Debian's `nginx` package puts the server. */
export const nginxBinary = '/usr/sbin/nginx';

export interface NginxLoadBalancer {
  /** The MCP endpoint through nginx: `http://127.0.0.1:PORT/mcp`. */
  url: URL;
  /** The master's pid, which leads the process group of nginx's processes. */
  pid: number;
  accessLog(): NginxAccessEntry[];
  /** Graceful stop (SIGQUIT); resolves once the master has exited. */
  stop(): Promise<void>;
}

async function startOnce(directory: string, replicas: readonly NginxReplica[]) {
  const port = await freeLoopbackPort();
  const configPath = join(directory, 'nginx.conf');
  const errorLog = join(directory, 'error.log');
  writeFileSync(configPath, nginxLoadBalancerConfig({ directory, port, replicas }));
  const ids = unprivilegedIds();
  if (ids !== undefined) chownSync(directory, ids.uid, ids.gid);
  // Its own process group, so that stopping it can be checked for every process it started.
  const child = spawn(nginxBinary, ['-p', `${directory}/`, '-c', configPath, '-e', errorLog], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    ...ids,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Bounded: nginx either listens or exits with a reason; this only guards against neither.
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
      return { child, port, failure: `${stderr}${log}`.trim() || `nginx exited ${child.exitCode}` };
    }
    if (await loopbackPortAnswers(port)) return { child, port, failure: undefined };
    await delay(50);
  }
  child.kill('SIGKILL');
  await childExited(child);
  return { child, port, failure: `nginx did not listen on 127.0.0.1:${port}: ${stderr}` };
}

/**
 * Starts Debian's nginx in the foreground on a free loopback port in front of
 * the replicas, with its config, pid file, logs and temporary files in
 * `directory`. A port taken between choosing it and binding it is chosen again.
 */
export async function startNginxLoadBalancer(
  directory: string,
  replicas: readonly NginxReplica[],
): Promise<NginxLoadBalancer> {
  let started = await startOnce(directory, replicas);
  for (let retry = 0; retry < 3 && started.failure?.includes('Address already in use') === true; retry++) {
    started = await startOnce(directory, replicas);
  }
  const { child, port, failure } = started;
  if (failure !== undefined) throw new Error(`nginx did not start: ${failure}`);
  const pid = child.pid ?? 0;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    pid,
    accessLog: () => parseNginxAccessLog(readFileSync(join(directory, 'access.log'), 'utf8')),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = childExited(child);
      child.kill('SIGQUIT');
      // worker_shutdown_timeout caps a graceful stop; this only guards against a stop that hangs regardless.
      const deadline = new AbortController();
      const late = delay(15_000, 'late' as const, { signal: deadline.signal }).catch(() => 'aborted' as const);
      if ((await Promise.race([exited, late])) === 'late') {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Gone between the deadline and the kill.
        }
      }
      deadline.abort();
      await exited;
    },
  };
}
