import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JsonRpcPayload, Transport } from '@toolshed/mcp-core';
import { type OverlongLine, readBoundedLines } from './bounded-lines.ts';
import { childEnvironment } from './child-environment.ts';
import { maxUpstreamMessageBytes } from './read-capped-body.ts';
import { limitStderrRate } from './stderr-rate-limit.ts';

/** The largest message read from a child: room for big images and files, and a bound on what one child can make the host hold. */
const maxMessageBytes = maxUpstreamMessageBytes;
/** A stderr line longer than this is cut: the log wants the start of a message, not a flood. */
const maxStderrLineBytes = 8 * 1024;

export interface ChildProcessSpec {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  inheritEnv?: readonly string[] | undefined;
  cwd: string | undefined;
}

/** Process groups of every child still running, killed when the host exits however it exits. */
const liveGroups = new Set<number>();
/** Every process group started, live or not: what a check for leftovers looks for. */
const startedGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether any process of the group is still there (a zombie not yet reaped counts). */
function groupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers run synchronously on every normal exit, uncaught errors included.
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  });
}

/** The process groups this process has started, running or not. */
export function startedChildGroups(): number[] {
  return [...startedGroups];
}

/**
 * An MCP stdio connection to a child process. The child leads its own process
 * group, so that whatever it starts (an `npx` wrapper's node, a server's
 * workers) is signalled with it: closing sends SIGTERM to the group, then
 * SIGKILL after a grace period, and the host's exit kills every group left.
 * The child's environment is the minimal one of `childEnvironment`. Lines
 * are read with caps (32 MiB a message, 8 KiB a stderr line), and stderr is
 * handed over line by line for the host's log, at a bounded rate.
 */
export class ChildProcessTransport implements Transport {
  readonly #spec: ChildProcessSpec;
  readonly #onStderr: (line: string) => void;
  #child: ChildProcessWithoutNullStreams | undefined;
  #closing = false;
  onmessage: ((message: unknown) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  /** How the child ended: its exit code, or the signal that ended it. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(spec: ChildProcessSpec, onStderr: (line: string) => void) {
    this.#spec = spec;
    this.#onStderr = onStderr;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    installExitHook();
    return new Promise((resolve, reject) => {
      // Loaded here, not imported: node:child_process stays off the start-up path of a host with no child servers.
      const { spawn } = process.getBuiltinModule('node:child_process');
      const child = spawn(this.#spec.command, [...this.#spec.args], {
        cwd: this.#spec.cwd,
        env: childEnvironment({ env: this.#spec.env, inheritEnv: this.#spec.inheritEnv }),
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.#child = child;
      child.once('error', (error) => {
        this.onerror?.(error);
        reject(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          liveGroups.add(child.pid);
          startedGroups.add(child.pid);
        }
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // The leader is gone; anything it left in its group goes with it.
        if (child.pid !== undefined) {
          killGroup(child.pid, 'SIGKILL');
          liveGroups.delete(child.pid);
        }
        this.onclose?.();
      });
      child.stdin.on('error', () => {});
      readBoundedLines(child.stdout, maxMessageBytes, {
        line: (line) => {
          if (line.trim() === '') return;
          let message: unknown;
          try {
            message = JSON.parse(line);
          } catch {
            this.#onStderr(`(not JSON on stdout) ${line.slice(0, 500)}`);
            return;
          }
          this.onmessage?.(message);
        },
        overlong: (line) => this.#dropped(line),
      });
      const stderr = limitStderrRate(this.#onStderr);
      child.stderr.once('end', () => stderr.flush());
      readBoundedLines(child.stderr, maxStderrLineBytes, {
        line: (line) => stderr.line(line),
        overlong: (line) => stderr.line(`${line.head}… (a line of ${line.bytes} bytes, cut)`),
      });
    });
  }

  /**
   * A message over the cap is not parsed. When its id can be read at its
   * start or end (where JSON-RPC writers put it), the request it answers is
   * failed with the reason instead of waiting forever.
   */
  #dropped(line: OverlongLine): void {
    const size = `${(line.bytes / 1024 / 1024).toFixed(1)} MiB`;
    const id =
      /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(\d+|"[^"]*")/.exec(line.head)?.[1] ??
      /"id"\s*:\s*(\d+|"[^"]*")\s*\}\s*$/.exec(line.tail)?.[1];
    this.#onStderr(`(a message of ${size} on stdout was dropped: over the ${maxMessageBytes / 1024 / 1024} MiB cap)`);
    if (id === undefined) return;
    this.onmessage?.({
      jsonrpc: '2.0',
      id: JSON.parse(id) as number | string,
      error: {
        code: -32000,
        message: `its answer was ${size}, over the ${maxMessageBytes / 1024 / 1024} MiB the host takes in one message, and was dropped`,
      },
    });
  }

  async send(message: JsonRpcPayload): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || this.#closing)
      throw new Error('The child process is not running');
    await new Promise<void>((resolve, reject) =>
      child.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Ends the child: stdin closed and SIGTERM to its group, SIGKILL after `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#closing) return;
    this.#closing = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    if (child.pid !== undefined) killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
    // The leader's exit set off a SIGKILL to the rest of its group; wait (briefly) until they are gone too,
    // so that a closed host has left nothing running.
    const deadline = Date.now() + graceMs;
    while (child.pid !== undefined && groupExists(child.pid) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
