import type { ChildProcess } from 'node:child_process';
import { type CallContext, ToolError } from '@toolshed/mcp-core';
import type { QueryProcessConfig, QueryRequest, QueryResponse, ReaderCheckRequest } from './query-messages.ts';
import type { StatementTimeLimit } from './statement-time-limit.ts';

export interface QueryProcessPoolOptions {
  /** Database name → absolute path. */
  databases: Record<string, string>;
  /** Query processes at most; calls beyond wait their turn. */
  maxProcesses: number;
  timeLimit: StatementTimeLimit;
  /** V8 heap of each query process, in MiB. */
  maxOldSpaceMb: number;
}

interface Waiter {
  resolve(queryProcess: QueryProcess): void;
  reject(error: Error): void;
}

interface QueryProcess {
  child: ChildProcess;
  ready: Promise<void>;
  /** Settles the call in flight when the process ends under it. */
  onExit?: ((reason: string) => void) | undefined;
}

// The query process sits next to this module: .ts in the workspace, .js once built.
const processScript = new URL(`./query-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * The server's query processes: started on demand up to a cap (none at
 * start, so a server that is only listed never starts one), reused, and
 * killed when a statement overruns its time or its call is cancelled (then
 * replaced on the next demand). Other calls keep being answered meanwhile by
 * the other processes.
 */
export class QueryProcessPool {
  readonly #options: QueryProcessPoolOptions;
  readonly #idle: QueryProcess[] = [];
  readonly #all = new Set<QueryProcess>();
  readonly #waiters: Waiter[] = [];
  #nextId = 1;
  #closed = false;

  // On any exit of the server's process, its query processes go with it.
  readonly #killAll = (): void => {
    for (const queryProcess of this.#all) queryProcess.child.kill('SIGKILL');
  };

  constructor(options: QueryProcessPoolOptions) {
    this.#options = options;
    process.once('exit', this.#killAll);
  }

  /**
   * Runs a request in a query process, which is killed when the time limit
   * passes (the pool's, or the one given: an export's) or the call is
   * cancelled.
   */
  async run(
    request: QueryRequest | ReaderCheckRequest,
    signal: AbortSignal,
    progress?: CallContext['progress'],
    timeLimit: StatementTimeLimit = this.#options.timeLimit,
  ): Promise<QueryResponse> {
    const cancelled = () => (signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
    if (signal.aborted) throw cancelled();
    const queryProcess = await this.#acquire(signal);
    let settled = false;
    try {
      await queryProcess.ready;
      // Cancelled while a new process started: its abort came before anyone listened for it.
      if (signal.aborted) throw cancelled();
      return await new Promise<QueryResponse>((resolve, reject) => {
        const id = this.#nextId++;
        const finish = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          stopClock();
          signal.removeEventListener('abort', onAbort);
          queryProcess.child.off('message', onMessage);
          queryProcess.onExit = undefined;
          outcome();
        };
        const onMessage = (message: QueryResponse) => {
          if (message.id === id) finish(() => resolve(message));
        };
        const kill = (error: Error) =>
          finish(() => {
            this.#discard(queryProcess);
            reject(error);
          });
        const onAbort = () => kill(cancelled());
        const stopClock = timeLimit.start(kill, progress);
        queryProcess.onExit = (reason) =>
          finish(() =>
            reject(
              new ToolError(
                `The query process ended while running the query (${reason}). The query may need more memory than allowed; make it smaller.`,
              ),
            ),
          );
        signal.addEventListener('abort', onAbort, { once: true });
        queryProcess.child.on('message', onMessage);
        queryProcess.child.send({ id, request });
      });
    } finally {
      if (this.#all.has(queryProcess)) this.#release(queryProcess);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    process.off('exit', this.#killAll);
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new ToolError('The server is shutting down.'));
    await Promise.all([...this.#all].map((queryProcess) => this.#discard(queryProcess)));
    this.#idle.length = 0;
  }

  #spawn(): QueryProcess {
    const { databases, timeLimit, maxOldSpaceMb } = this.#options;
    const processConfig: QueryProcessConfig = {
      databases,
      busyTimeoutMs: timeLimit.busyTimeoutMs,
      parentPid: process.pid,
    };
    // Loaded here, not imported: node:child_process stays off the server's start-up path.
    const { fork } = process.getBuiltinModule('node:child_process');
    const child = fork(processScript, [JSON.stringify(processConfig)], {
      serialization: 'advanced',
      // stdout may be the MCP channel (stdio transport): a query process never writes to it.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [`--max-old-space-size=${maxOldSpaceMb}`],
    });
    const queryProcess: QueryProcess = {
      child,
      ready: new Promise((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code, signal) =>
          reject(new ToolError(`The query process could not start (${signal ?? `exit ${code}`}).`)),
        );
      }),
    };
    queryProcess.ready.catch(() => {});
    child.on('exit', (code, signal) => {
      this.#forget(queryProcess);
      queryProcess.onExit?.(signal ?? `exit code ${code}`);
      this.#serveWaiter();
    });
    // Idle query processes must not keep the server's process alive.
    child.unref();
    child.channel?.unref();
    this.#all.add(queryProcess);
    return queryProcess;
  }

  #acquire(signal: AbortSignal): Promise<QueryProcess> {
    if (this.#closed) return Promise.reject(new ToolError('The server is shutting down.'));
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(this.#busy(idle));
    if (this.#all.size < this.#options.maxProcesses) return Promise.resolve(this.#busy(this.#spawn()));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (queryProcess) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.#busy(queryProcess));
        },
        reject,
      };
      const onAbort = () => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #busy(queryProcess: QueryProcess): QueryProcess {
    // While a call is in flight the process keeps the server alive, so the answer is not lost.
    queryProcess.child.channel?.ref();
    return queryProcess;
  }

  #release(queryProcess: QueryProcess): void {
    queryProcess.child.channel?.unref();
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) waiter.resolve(queryProcess);
    else this.#idle.push(queryProcess);
  }

  #forget(queryProcess: QueryProcess): void {
    this.#all.delete(queryProcess);
    const index = this.#idle.indexOf(queryProcess);
    if (index !== -1) this.#idle.splice(index, 1);
  }

  #discard(queryProcess: QueryProcess): Promise<void> {
    this.#forget(queryProcess);
    const exited = new Promise<void>((resolve) => {
      if (queryProcess.child.exitCode !== null || queryProcess.child.signalCode !== null) resolve();
      else queryProcess.child.once('exit', () => resolve());
    });
    // Held until it is gone, so that awaiting close() keeps the event loop alive.
    queryProcess.child.ref();
    queryProcess.child.kill('SIGKILL');
    this.#serveWaiter();
    return exited;
  }

  /** A call waiting for the process that just ended gets a fresh one. */
  #serveWaiter(): void {
    if (this.#closed || this.#waiters.length === 0 || this.#all.size >= this.#options.maxProcesses) return;
    this.#waiters.shift()?.resolve(this.#spawn());
  }
}
