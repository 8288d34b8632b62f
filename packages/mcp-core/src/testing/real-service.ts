import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** A service from Debian's packages that some tests need (DESIGN.md, "Real services in tests"). */
export interface RealService {
  /** What people call it: `PostgreSQL`, `Dovecot`. */
  name: string;
  /** The executable the tests start; the service counts as installed when it exists. */
  binary: string;
  /** The Debian package that installs it. */
  debianPackage: string;
}

/** The test registrar a gate needs: vitest's `it` fits. */
export interface TestRegistrar {
  (name: string, body: () => void): void;
  skip(name: string): void;
}

/**
 * Whether a service is installed; when it is not, registers one test that says
 * which package to install: skipped on a developer's machine, failing where
 * `TOOLSHED_REQUIRE_SERVICES=1` (CI) says the service must be there. Returns
 * whether the tests that need it can run: `describe.runIf(serviceGate(…, it))`.
 */
export function serviceGate(service: RealService, test: TestRegistrar): boolean {
  if (existsSync(service.binary)) return true;
  const missing = `${service.name} is not installed (${service.binary}): install the Debian package ${service.debianPackage} to run these tests`;
  if (process.env.TOOLSHED_REQUIRE_SERVICES === '1') {
    test(missing, () => {
      throw new Error(`${missing} (TOOLSHED_REQUIRE_SERVICES=1 says it must be)`);
    });
  } else {
    console.warn(`skipped: ${missing}`);
    test.skip(missing);
  }
  return false;
}

/** A port nobody listens on right now on 127.0.0.1, from the kernel. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function loopbackPortAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The user and group a service runs as when the tests run as root (as in CI):
 * `nobody`, so that no service in a test has privileges, and so that the
 * services that refuse root (PostgreSQL, MariaDB) start. Undefined when the
 * tests already run unprivileged.
 */
export function unprivilegedIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const nobody = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'nobody');
  return { uid: Number(nobody?.[2] ?? 65534), gid: Number(nobody?.[3] ?? 65534) };
}

/** Every live process in the tree under pid, from /proc; zombies hold nothing and are left out. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state = '', parent = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') parents.set(Number(entry), Number(parent));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = parents.has(pid) ? [pid] : [];
  for (let index = 0; index < tree.length; index++) {
    for (const [child, parent] of parents) if (parent === tree[index]) tree.push(child);
  }
  return tree;
}

// Linux's USER_HZ: /proc counts CPU time in hundredths of a second.
const clockTicksPerSecond = 100;

/** What a process and everything under it have used, from /proc: CPU time so far and memory now. */
export interface ProcessTreeUsage {
  /** User and system CPU time, in milliseconds. */
  cpuMs: number;
  rssKib: number;
  /** Proportional set size: shared pages counted in part, so trees of different shapes compare fairly. */
  pssKib: number;
}

/**
 * The CPU time and memory of a process and its descendants, for benchmarks
 * that compare whole servers (a server and its query processes, say).
 */
export function processTreeUsage(pid: number): ProcessTreeUsage {
  let ticks = 0;
  let rssKib = 0;
  let pssKib = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      const rollup = readFileSync(`/proc/${member}/smaps_rollup`, 'utf8');
      rssKib += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pssKib += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return { cpuMs: (ticks * 1000) / clockTicksPerSecond, rssKib, pssKib };
}

/** The pids among these that are still running (not gone, not zombies). */
export function alivePids(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  });
}

/** Resolves once the child has exited (at once when it already has). */
export function childExited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

// Services run in their own process groups, so a test process that ends without stopping them (a timed-out
// run, a failed setup) would leave them running: each still running when this process exits is killed.
const runningGroups = new Set<number>();
let killOnExit = false;

function trackGroup(pid: number): void {
  runningGroups.add(pid);
  if (killOnExit) return;
  killOnExit = true;
  process.once('exit', () => {
    for (const group of runningGroups) signalGroup(group, 'SIGKILL');
  });
}

/** A service process the tests started, in its own process group. */
export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** What it wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** SIGTERM to its process group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface ServiceStart {
  command: string;
  /** The arguments for a port; called again with a new port when the chosen one was taken meanwhile. */
  args(port: number): string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as `nobody` when the tests run as root (default true). */
  unprivileged?: boolean;
  /** How long it may take to listen; a service that neither listens nor exits in that time is killed. */
  listenWithinMs?: number;
  /** Extra text for a failure message, such as the service's own log file. */
  describeFailure?(): string;
  /** This port rather than a free one: a service started again where its clients expect it. */
  port?: number;
}

/**
 * Starts a service in the foreground on a free loopback port (or `start.port`)
 * and resolves once it accepts connections there. A free port taken between
 * choosing and binding it is chosen again; a service that exits first rejects
 * with what it printed.
 */
export async function startServiceProcess(start: ServiceStart): Promise<ServiceProcess> {
  let lastFailure = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = start.port ?? (await freeLoopbackPort());
    const ids = start.unprivileged === false ? undefined : unprivilegedIds();
    const child = spawn(start.command, start.args(port), {
      cwd: start.cwd,
      env: start.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...ids,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const spawnFailure = new Promise<string>((resolve) => child.once('error', (error) => resolve(error.message)));
    const group = child.pid;
    if (group !== undefined) {
      trackGroup(group);
      child.once('exit', () => runningGroups.delete(group));
    }
    const service: ServiceProcess = {
      child,
      port,
      output: () => output,
      async stop(graceMs = 10_000) {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
        const exited = childExited(child);
        signalGroup(child.pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child.pid ?? 0, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      },
    };
    const deadline = Date.now() + (start.listenWithinMs ?? 60_000);
    let failure: string | undefined;
    while (failure === undefined) {
      const failed = await Promise.race([spawnFailure, delay(0, undefined)]);
      if (failed !== undefined) failure = failed;
      else if (child.exitCode !== null || child.signalCode !== null) {
        failure =
          `${output}${start.describeFailure?.() ?? ''}`.trim() || `exited with ${child.exitCode ?? child.signalCode}`;
      } else if (await loopbackPortAnswers(port)) return service;
      else if (Date.now() > deadline) {
        await service.stop(0);
        failure = `did not listen on 127.0.0.1:${port}: ${output}${start.describeFailure?.() ?? ''}`.trim();
      } else await delay(50);
    }
    lastFailure = failure;
    if (start.port !== undefined || !/address already in use|EADDRINUSE|could not bind/i.test(failure)) break;
  }
  throw new Error(`${start.command} did not start: ${lastFailure}`);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
}
