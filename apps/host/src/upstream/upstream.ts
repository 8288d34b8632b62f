import {
  createInMemoryTransportPair,
  type Implementation,
  type McpServer,
  type ToolDescriptor,
} from '@toolshed/mcp-core';
import type { ServerEntry } from '../config/host-config.ts';
import { ChildProcessTransport } from './child-process-transport.ts';
import { HttpClientTransport } from './http-client-transport.ts';
import { createPackageServer } from './mount-package.ts';
import { type UpstreamRequestOptions, UpstreamSession } from './upstream-session.ts';

export type UpstreamState = 'starting' | 'up' | 'down' | 'failed' | 'stopped';

export interface UpstreamHooks {
  /** The upstream's tools changed: listed after (re)connecting, emptied while it is down. */
  onTools(upstream: Upstream): void;
  /** A line for the host's log. */
  log(line: string): void;
}

export interface UpstreamOptions {
  clientInfo: Implementation;
  /** Restarts after crashes before the server is given up on. */
  maxRestarts: number;
  /** The first restart's delay; each next one doubles, up to 30 s. */
  restartDelayMs?: number | undefined;
}

/** A restart counter resets once a server has stayed up this long. */
const stableAfterMs = 60_000;
const maxRestartDelayMs = 30_000;
const connectTimeoutMs = 30_000;

/**
 * One configured server and its connection: mounted in process, a child
 * process, or a Streamable HTTP endpoint. A child that exits, or an HTTP
 * server that cannot be reached at start, is tried again with exponential
 * backoff up to a cap; while it is down its tools are withdrawn, and they
 * come back when it is up again.
 */
export class Upstream {
  readonly entry: ServerEntry;
  readonly #hooks: UpstreamHooks;
  readonly #options: UpstreamOptions;
  state: UpstreamState = 'starting';
  tools: ToolDescriptor[] = [];
  session: UpstreamSession | undefined;
  #server: McpServer | undefined;
  #child: ChildProcessTransport | undefined;
  #restarts = 0;
  #upSince = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #stopping = false;
  /** The last error that kept the server from starting. */
  lastError: string | undefined;

  constructor(entry: ServerEntry, hooks: UpstreamHooks, options: UpstreamOptions) {
    this.entry = entry;
    this.#hooks = hooks;
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Connects and lists tools. A failure leaves the server down (and, for a child, retrying); it never throws. */
  async start(): Promise<void> {
    this.state = 'starting';
    try {
      await this.#connect();
      await this.#listTools();
      this.state = 'up';
      this.#upSince = Date.now();
      this.lastError = undefined;
      this.#hooks.onTools(this);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      this.#hooks.log(`[${this.entry.name}] could not start: ${this.lastError}`);
      await this.#disconnect();
      this.#down();
    }
  }

  call(name: string, args: Record<string, unknown>, options: UpstreamRequestOptions): Promise<unknown> {
    const session = this.session;
    if (session === undefined || this.state !== 'up') {
      return Promise.reject(
        new Error(
          `${this.entry.name} is ${this.state === 'failed' ? 'not running (it kept crashing)' : 'restarting'}; try again shortly`,
        ),
      );
    }
    return session.request('tools/call', { name, arguments: args }, options);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restartTimer);
    this.state = 'stopped';
    await this.#disconnect();
  }

  async #connect(): Promise<void> {
    const { entry } = this;
    let session: UpstreamSession;
    if (entry.kind === 'package') {
      const server = await createPackageServer(entry.package, entry.options);
      const [clientSide, serverSide] = createInMemoryTransportPair();
      await server.connect(serverSide);
      this.#server = server;
      session = new UpstreamSession(clientSide);
    } else if (entry.kind === 'stdio') {
      const child = new ChildProcessTransport(entry, (line) => this.#hooks.log(`[${entry.name}] ${line}`));
      this.#child = child;
      session = new UpstreamSession(child);
    } else {
      session = new UpstreamSession(new HttpClientTransport(entry.url, entry.headers));
    }
    this.session = session;
    session.onToolsChanged = () => {
      this.#listTools().then(
        () => this.#hooks.onTools(this),
        (error: unknown) => this.#hooks.log(`[${entry.name}] tools/list failed: ${String(error)}`),
      );
    };
    session.onLog = (params) =>
      this.#hooks.log(`[${entry.name}] ${params.level ?? 'info'}: ${JSON.stringify(params.data)}`);
    session.onClose = () => this.#closedUnexpectedly();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      session.initialize(this.#options.clientInfo),
      new Promise((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to initialize within ${connectTimeoutMs / 1000} s`)),
          connectTimeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  async #listTools(): Promise<void> {
    const tools: ToolDescriptor[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.session?.request('tools/list', cursor === undefined ? {} : { cursor })) as {
        tools: ToolDescriptor[];
        nextCursor?: string;
      };
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.tools = tools;
  }

  async #disconnect(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session !== undefined) session.onClose = undefined;
    await session?.close();
    await this.#child?.close();
    await this.#server?.close();
    this.#server = undefined;
  }

  #closedUnexpectedly(): void {
    if (this.#stopping) return;
    const exit = this.#child?.exit;
    const how =
      exit === undefined
        ? 'closed the connection'
        : exit.signal === null
          ? `exited with code ${exit.code}`
          : `was killed by ${exit.signal}`;
    this.#hooks.log(`[${this.entry.name}] ${how}`);
    void this.#disconnect();
    this.#down();
  }

  /** Withdraws the tools and, for a child, schedules the next try. */
  #down(): void {
    if (this.#stopping || this.state === 'down' || this.state === 'failed') return;
    this.tools = [];
    this.state = 'down';
    this.#hooks.onTools(this);
    // A child may come back after a crash, an HTTP server after a network fault; a mounted server cannot fail so.
    if (this.entry.kind === 'package') return;
    // A server that had stayed up a good while starts its count afresh; one that never came up does not.
    if (this.#upSince > 0 && Date.now() - this.#upSince > stableAfterMs) this.#restarts = 0;
    this.#upSince = 0;
    if (this.#restarts >= this.#options.maxRestarts) {
      this.state = 'failed';
      this.#hooks.log(`[${this.entry.name}] gave up after ${this.#restarts} restarts`);
      return;
    }
    const delay = Math.min(maxRestartDelayMs, (this.#options.restartDelayMs ?? 500) * 2 ** this.#restarts);
    this.#restarts += 1;
    this.#hooks.log(
      `[${this.entry.name}] restarting in ${delay} ms (restart ${this.#restarts} of at most ${this.#options.maxRestarts})`,
    );
    this.#restartTimer = setTimeout(() => void this.start(), delay);
  }
}
