import {
  type CallContext,
  type CallToolResult,
  createInMemoryTransportPair,
  type Implementation,
  type LogLevel,
  logLevels,
  type McpServer,
  type PromptDescriptor,
  ProtocolError,
  type ResourceDescriptor,
  type ResourceTemplateDescriptor,
  type ToolDescriptor,
} from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import type { ServerEntry } from '../config/host-config.ts';
import { ChildProcessTransport } from './child-process-transport.ts';
import { HttpClientTransport } from './http-client-transport.ts';
import { inProcessCallContext } from './in-process-call-context.ts';
import { type ListKind, subscribeToListChanges } from './list-changes-subscription.ts';
import { createPackageServer } from './mount-package.ts';
import { UpstreamClosedError, UpstreamConnectError, UpstreamRpcError } from './upstream-errors.ts';
import { type UpstreamIdentity, type UpstreamRequestOptions, UpstreamSession } from './upstream-session.ts';

export type UpstreamState = 'starting' | 'up' | 'down' | 'failed' | 'stopped';

export interface UpstreamHooks {
  /** The upstream's tools changed: listed after (re)connecting, emptied while it is down. */
  onTools(upstream: Upstream): void;
  /** Its prompts, resources or resource templates changed, as `onTools`. */
  onCatalog(upstream: Upstream): void;
  /** It said one of its resources changed. */
  onResourceUpdated(upstream: Upstream, uri: string): void;
  /** A line for the host's log. */
  log(line: string): void;
}

export interface UpstreamOptions {
  clientInfo: Implementation;
  /** Restarts after crashes before the server is given up on. */
  maxRestarts: number;
  /** The first restart's delay; each next one doubles, up to 30 s. */
  restartDelayMs?: number | undefined;
  /**
   * How long a child or a mounted server may leave server/discover
   * unanswered before it is taken for a legacy server. Default 5 s.
   */
  probeTimeLimitMs?: number | undefined;
  /** The host's state store, lent to the servers of ours it mounts (email keeps its send-once keys there). */
  stateStore?: (() => StateStore) | undefined;
}

/** A restart counter resets once a server has stayed up this long. */
const stableAfterMs = 60_000;
const maxRestartDelayMs = 30_000;
const connectTimeoutMs = 30_000;
/** Long enough for a child that is slow to start, short enough that a silent legacy one is not waited on long. */
const defaultProbeTimeLimitMs = 5000;
/** What a mounted server's tools log reaches the host's log from this level up, as a session's default filter lets through. */
const inProcessLogThreshold = logLevels.indexOf('info');

/**
 * One configured server and its connection: mounted in process, a child
 * process, or a Streamable HTTP endpoint. A child that exits, or an HTTP
 * server that cannot be reached at start, is tried again with exponential
 * backoff up to a cap; while it is down its tools are withdrawn, and they
 * come back when it is up again. Each connection finds out the server's era
 * first (UpstreamSession.connect); what it found is kept in `identity`.
 */
export class Upstream {
  readonly entry: ServerEntry;
  readonly #hooks: UpstreamHooks;
  readonly #options: UpstreamOptions;
  state: UpstreamState = 'starting';
  tools: ToolDescriptor[] = [];
  prompts: PromptDescriptor[] = [];
  resources: ResourceDescriptor[] = [];
  resourceTemplates: ResourceTemplateDescriptor[] = [];
  session: UpstreamSession | undefined;
  #server: McpServer | undefined;
  #child: ChildProcessTransport | undefined;
  #restarts = 0;
  #upSince = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #stopping = false;
  #listSubscription: { stop(): void } | undefined;
  /** A child that closed its connection on server/discover is spoken to in the legacy era from then on. */
  #knownLegacy = false;
  /** The last error that kept the server from starting. */
  lastError: string | undefined;
  /** What the server said about itself when it last connected, its era included. */
  identity: UpstreamIdentity | undefined;

  constructor(entry: ServerEntry, hooks: UpstreamHooks, options: UpstreamOptions) {
    this.entry = entry;
    this.#hooks = hooks;
    this.#options = options;
  }

  /** Calls in flight on a mounted server's tools, each ended when the server is stopped or re-mounted. */
  readonly #inProcessCalls = new Set<AbortController>();

  /** Restarts after crashes since it last stayed up a minute. */
  get restarts(): number {
    return this.#restarts;
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
      await this.#listCatalog(['prompts', 'resources']);
      this.#listenForListChanges();
      this.state = 'up';
      this.#upSince = Date.now();
      this.lastError = undefined;
      this.#hooks.onTools(this);
      this.#hooks.onCatalog(this);
    } catch (error) {
      if (error instanceof UpstreamConnectError && error.legacyNextTime) this.#knownLegacy = true;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.#hooks.log(`[${this.entry.name}] could not start: ${this.lastError}`);
      await this.#disconnect();
      this.#down();
    }
  }

  /**
   * Whether a caller's verified identity may be handed to this server with
   * its requests: only to one of ours, mounted in this process, which reads
   * it as `call.auth`. A child process or a remote server never gets it:
   * the identity stays in the process that verified the token.
   */
  get receivesCallerIdentity(): boolean {
    return this.entry.kind === 'package';
  }

  /**
   * Whether its tools are called directly, in this process, with the
   * caller's context (`callInProcess`): one of ours, mounted here.
   */
  get callsInProcess(): boolean {
    return this.entry.kind === 'package';
  }

  call(name: string, args: Record<string, unknown>, options: UpstreamRequestOptions): Promise<unknown> {
    const { traceContext } = options;
    const params =
      traceContext === undefined ? { name, arguments: args } : { name, arguments: args, _meta: traceContext };
    return this.request('tools/call', params, options);
  }

  /**
   * Calls a tool of a server mounted in this process directly: no transport,
   * no second JSON-RPC engine. The tool runs with the caller's context
   * (see inProcessCallContext) and follows `signal`; the answer comes as
   * soon as `signal` aborts, whether the tool stops or not, and a call in
   * flight when the server is stopped or re-mounted ends with
   * UpstreamClosedError, as it would on a connection. What a client would
   * get as a JSON-RPC error rejects as UpstreamRpcError.
   */
  callInProcess(
    name: string,
    args: Record<string, unknown>,
    caller: CallContext,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const server = this.#server;
    if (server === undefined || this.state !== 'up') return Promise.reject(this.#notUp());
    if (signal.aborted) return Promise.reject(signal.reason);
    const call = new AbortController();
    const follow = () => call.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    this.#inProcessCalls.add(call);
    return new Promise<CallToolResult>((resolve, reject) => {
      const end = () => {
        signal.removeEventListener('abort', follow);
        call.signal.removeEventListener('abort', stop);
        this.#inProcessCalls.delete(call);
      };
      const stop = () => {
        end();
        reject(call.signal.reason);
      };
      call.signal.addEventListener('abort', stop, { once: true });
      server.callTool(name, args, inProcessCallContext(caller, call.signal, this.#logFromTool)).then(
        (result) => {
          end();
          resolve(result);
        },
        (error: unknown) => {
          end();
          reject(ProtocolError.isInstance(error) ? new UpstreamRpcError(error.code, error.message, error.data) : error);
        },
      );
    });
  }

  /** A mounted server's tool logged something: to the host's log with the server's name, as a session's log notification. */
  readonly #logFromTool = (level: LogLevel, data: unknown): void => {
    if (logLevels.indexOf(level) < inProcessLogThreshold) return;
    this.#hooks.log(`[${this.entry.name}] ${level}: ${JSON.stringify(data)}`);
  };

  #notUp(): Error {
    return new Error(
      `${this.entry.name} is ${this.state === 'failed' ? 'not running (it kept crashing)' : 'restarting'}; try again shortly`,
    );
  }

  /** Any request to the server while it is up: reading a resource, getting a prompt, completing an argument. */
  request(method: string, params: Record<string, unknown>, options: UpstreamRequestOptions = {}): Promise<unknown> {
    const session = this.session;
    if (session === undefined || this.state !== 'up') return Promise.reject(this.#notUp());
    if (options.authInfo !== undefined && !this.receivesCallerIdentity) {
      const { authInfo: _dropped, ...withoutIdentity } = options;
      return session.request(method, params, withoutIdentity);
    }
    return session.request(method, params, options);
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
      const server = await createPackageServer(entry.package, entry.options, undefined, {
        stateStore: this.#options.stateStore?.(),
      });
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
    session.onListChanged = (list) => {
      this.#listCatalog([list]).then(() => this.#hooks.onCatalog(this));
    };
    session.onResourceUpdated = (uri) => this.#hooks.onResourceUpdated(this, uri);
    session.onLog = (params) =>
      this.#hooks.log(`[${entry.name}] ${params.level ?? 'info'}: ${JSON.stringify(params.data)}`);
    session.onClose = () => this.#closedUnexpectedly();
    let timer: NodeJS.Timeout | undefined;
    const identity = await Promise.race([
      session.connect({
        clientInfo: this.#options.clientInfo,
        // Over HTTP a server that does not answer is down, whatever its era: the connect time limit covers it.
        probeTimeLimitMs:
          entry.kind === 'http' ? undefined : (this.#options.probeTimeLimitMs ?? defaultProbeTimeLimitMs),
        legacy: this.#knownLegacy,
      }),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to server/discover or initialize within ${connectTimeoutMs / 1000} s`)),
          connectTimeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    this.identity = identity;
    const server =
      identity.serverInfo === undefined
        ? ''
        : ` (${identity.serverInfo.name}${identity.serverInfo.version === undefined ? '' : ` ${identity.serverInfo.version}`})`;
    this.#hooks.log(
      identity.era === 'modern'
        ? `[${entry.name}] modern era, protocol ${identity.protocolVersion}${server}`
        : `[${entry.name}] legacy era, protocol ${identity.protocolVersion}${server}: ${identity.legacyBecause ?? 'initialize'}`,
    );
  }

  /** Modern servers announce list changes on a subscription of their own, not on the connection. */
  #listenForListChanges(): void {
    const session = this.session;
    const capabilities = this.identity?.capabilities as
      | Record<string, { listChanged?: unknown } | undefined>
      | undefined;
    if (session === undefined || this.identity?.era !== 'modern' || capabilities === undefined) return;
    const lists = (['tools', 'prompts', 'resources'] as const).filter(
      (list) => capabilities[list]?.listChanged === true,
    );
    if (lists.length === 0) return;
    this.#listSubscription = subscribeToListChanges(session, lists, {
      onChange: (list) => (list === 'tools' ? session.onToolsChanged?.() : session.onListChanged?.(list)),
      log: (line) => this.#hooks.log(`[${this.entry.name}] ${line}`),
    });
  }

  /** Every page of one list. */
  async #listAll<Item>(method: string, key: string): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.session?.request(method, cursor === undefined ? {} : { cursor })) as
        | (Record<string, Item[] | undefined> & { nextCursor?: string })
        | undefined;
      items.push(...(page?.[key] ?? []));
      cursor = page?.nextCursor;
    } while (cursor !== undefined);
    return items;
  }

  /**
   * Reads the prompts and resources the server offers. A list that fails
   * is logged and left empty: the server's tools still work without it.
   */
  async #listCatalog(lists: readonly Exclude<ListKind, 'tools'>[]): Promise<void> {
    const capabilities = this.identity?.capabilities ?? {};
    const read = async <Item>(method: string, key: string): Promise<Item[]> =>
      this.#listAll<Item>(method, key).catch((error: unknown) => {
        this.#hooks.log(
          `[${this.entry.name}] ${method} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        return [];
      });
    if (lists.includes('prompts') && capabilities.prompts !== undefined) {
      this.prompts = await read<PromptDescriptor>('prompts/list', 'prompts');
    }
    if (lists.includes('resources') && capabilities.resources !== undefined) {
      this.resources = await read<ResourceDescriptor>('resources/list', 'resources');
      this.resourceTemplates = await read<ResourceTemplateDescriptor>('resources/templates/list', 'resourceTemplates');
    }
  }

  async #listTools(): Promise<void> {
    this.tools = await this.#listAll<ToolDescriptor>('tools/list', 'tools');
  }

  async #disconnect(): Promise<void> {
    for (const call of this.#inProcessCalls) {
      call.abort(new UpstreamClosedError('it was stopped or mounted again'));
    }
    this.#listSubscription?.stop();
    this.#listSubscription = undefined;
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
    this.prompts = [];
    this.resources = [];
    this.resourceTemplates = [];
    this.state = 'down';
    this.#hooks.onTools(this);
    this.#hooks.onCatalog(this);
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
