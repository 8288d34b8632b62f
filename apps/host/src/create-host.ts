import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  type AuthInfo,
  createMcpServer,
  type JsonRpcRequest,
  LocalError,
  type McpServer,
  type Readiness,
} from '@toolshed/mcp-core';
import { openStateStore, type StateStore, StateStoreError } from '@toolshed/state';
import { type AuditEntry, AuditLog } from './compose/audit-log.ts';
import { type CallLimiter, createCallLimiter } from './compose/call-limiter.ts';
import { createCallRecorder } from './compose/call-recorder.ts';
import { createCatalogSync } from './compose/catalog-sync.ts';
import { hostTaskStore } from './compose/host-task-store.ts';
import { retryRelayTarget } from './compose/retry-relay.ts';
import { createToolShelf } from './compose/tool-shelf.ts';
import { createToolSync, type HostToolRow } from './compose/tool-sync.ts';
import type { HostConfig, HostOptions, ServerEntry, ToolList } from './config/host-config.ts';
import { ApprovalBroker } from './console/approval-broker.ts';
import { hostVersion } from './host-version.ts';
import { createCallToolTool } from './search/call-tool-tool.ts';
import { createFindToolsTool } from './search/find-tools-tool.ts';
import { createListServersTool } from './search/list-servers-tool.ts';
import { stateDirectory } from './state-directory.ts';
import { checkPackageOptions } from './upstream/mount-package.ts';
import { Upstream } from './upstream/upstream.ts';

export type { HostToolRow } from './compose/tool-sync.ts';

export interface CreateHostOptions {
  /** Lines for the host's log (children's stderr, restarts). Default: stderr. */
  log?: ((line: string) => void) | undefined;
  /** The first restart delay after a crash; doubles each time. Default 500 ms. */
  restartDelayMs?: number | undefined;
  /** The environment, for the default audit log place. */
  env?: NodeJS.ProcessEnv | undefined;
  /** How long a child or mounted server may leave server/discover unanswered before it counts as legacy. Default 5 s. */
  probeTimeLimitMs?: number | undefined;
  /**
   * Where the host keeps what it promises (audit record, approvals, logins,
   * rate budgets, idempotency keys, spent nonces): a `postgres://` URL shared
   * by replicas, a SQLite file path, or an open store (the host does not
   * close a store it was given). Default: `state.db` in the host's state
   * directory (`$XDG_STATE_HOME/toolshed`).
   */
  state?: string | StateStore | undefined;
}

/** What a reload did, by server name. */
export interface ReloadSummary {
  /** New entries, started. */
  added: string[];
  /** Entries whose settings changed: stopped and started again. */
  restarted: string[];
  /** Entries no longer configured (or now disabled): stopped. */
  removed: string[];
  /** Entries exactly as before: left running, calls in flight and all. */
  unchanged: string[];
}

export interface Host {
  /** The composed server: connect it to stdio, HTTP or an in-memory transport. */
  readonly server: McpServer;
  /** The configured servers, in config order (it changes on reload). */
  readonly upstreams: readonly Upstream[];
  /** Where audit lines go; undefined when the audit log is off. */
  readonly auditPath: string | undefined;
  /** What `tools/list` shows now: every upstream tool, or the search tools (`toolshed.toolList`). */
  readonly toolList: ToolList;
  /** Starts every upstream at once; resolves when each is up or has failed to start. */
  start(): Promise<void>;
  /**
   * Moves to a new config, touching only what changed: new entries start,
   * removed ones stop, changed ones restart, and the rest keep running with
   * their calls in flight. Clients hear list_changed for what moved. A
   * config whose package options are wrong is refused before anything stops.
   */
  reload(config: HostConfig): Promise<ReloadSummary>;
  tools(): HostToolRow[];
  /** The calls waiting for a decision in the console; a console attaches to it to decide them. */
  readonly approvals: ApprovalBroker;
  /** Calls `listener` with how each tool call ended (the audit log's line for it); returns the unsubscribe. */
  onCallFinished(listener: (entry: AuditEntry) => void): () => void;
  /** The state store, once `start()` has opened it. */
  store(): StateStore;
  /** Whether calls are recorded (`toolshed.audit.enabled`). */
  readonly auditEnabled: boolean;
  /** Whether the host can serve calls now: its state store answers. */
  readiness(): Promise<Readiness>;
  /**
   * Tells the host where it answers (its HTTP endpoint, as the other
   * replicas reach it): a caller's retry that reaches another replica is
   * relayed here when this replica holds the call it continues.
   */
  advertiseEndpoint(url: string): void;
  /** For the HTTP endpoint's `relay`: the replica a request is to be answered by, when not this one. */
  relayTarget(request: JsonRpcRequest, auth: AuthInfo | undefined): Promise<string | undefined>;
  close(): Promise<void>;
}

/** The JSONL file calls are also written to: only when the config names one (the state store is the record). */
function auditPathOf(options: HostOptions): string | undefined {
  return options.audit.enabled ? options.audit.path : undefined;
}

function instructionsFor(config: HostConfig): string {
  const { servers, options } = config;
  const found = options.toolList === 'search' ? 'found with find_tools and run with call_tool, ' : '';
  return (
    `Tools from ${servers.length} servers (${servers.map((entry) => entry.name).join(', ')}), ` +
    `${found}each named <server>${options.separator}<tool>. Tools that may change or delete things ask the user first; a declined call must not be retried unless the user asks.`
  );
}

/**
 * The host: one MCP server whose tools, prompts and resources are those of
 * every configured upstream, each under a prefixed, stable name. Upstreams
 * come and go (a child crashes, a server's list changes, the config is
 * reloaded) and the host's lists follow, which clients hear as list_changed.
 */
export function createHost(config: HostConfig, options: CreateHostOptions = {}): Host {
  const log = options.log ?? ((line: string) => process.stderr.write(`toolshed: ${line}\n`));
  let settings = config.options;
  let auditPath = auditPathOf(settings);
  const openAudit = (path: string | undefined) =>
    path === undefined
      ? undefined
      : new AuditLog({ path, maxBytes: settings.audit.maxBytes, files: settings.audit.files });
  let audit = openAudit(auditPath);
  const callListeners = new Set<(entry: AuditEntry) => void>();
  let store: StateStore | undefined;
  /** Where this replica answers, once it serves HTTP. */
  let endpoint: string | undefined;
  const ownsStore = typeof options.state !== 'object';
  const storeNow = (): StateStore => {
    if (store === undefined) throw new Error('the host has not started: its state store is not open');
    return store;
  };
  const relayTarget = retryRelayTarget(storeNow, () => endpoint);
  // The store is the record; the JSONL file (which can be swapped on reload) and the listeners hear each call after.
  const recorder = createCallRecorder({
    store: storeNow,
    enabled: () => settings.audit.enabled,
    sink(entry) {
      audit?.write(entry);
      for (const listener of callListeners) listener(entry);
    },
  });
  const server = createMcpServer({
    name: 'toolshed',
    title: 'Toolshed Host',
    version: hostVersion,
    instructions: instructionsFor(config),
    tools: [],
    // Declared from the start: the upstreams' prompts and resources arrive as they connect.
    prompts: [],
    resources: [],
    onClose: () => upstreamsClosed(),
    // A 2026-era requestState is accepted once across every replica sharing the store.
    requestStateLedger: { spend: (nonce, expiresAt) => storeNow().nonces.spend(nonce, expiresAt, Date.now()) },
    // Calls that became tasks are read, answered and cancelled through any replica.
    tasks: { store: hostTaskStore(storeNow) },
  });
  // Closing the server (stdin ended, a signal, host.close) ends every upstream with it.
  const upstreamsClosed = () =>
    Promise.all([approvals.close(), ...upstreams.map((upstream) => upstream.stop())]).then(async () => {
      audit?.close();
      if (ownsStore) await store?.close();
    });
  const approvals = new ApprovalBroker({
    store: storeNow,
    timeLimitMs: () => settings.approval.consoleTimeLimitMs,
  });
  const limiters = new Map<Upstream, CallLimiter | undefined>();
  const shelf = createToolShelf(server);
  const searchTools = [
    createFindToolsTool(shelf),
    createCallToolTool(shelf),
    createListServersTool(shelf, () => upstreams),
  ];
  shelf.list(settings.toolList, searchTools);
  const toolSync = createToolSync({
    shelf,
    log,
    audit: recorder,
    limiterFor: (upstream) => limiters.get(upstream),
    hostTimeoutMs: () => settings.toolTimeoutMs,
    approvals,
    hostApprovalMode: () => settings.approval.mode,
    state: storeNow,
    endpoint: () => endpoint,
  });
  const catalog = createCatalogSync({
    server,
    separator: () => settings.separator,
    log,
    toolNamesOf: (upstream) =>
      Object.fromEntries(
        shelf
          .all()
          .filter((shelved) => shelved.upstream === upstream)
          .map((shelved) => [shelved.upstreamName, shelved.tool.name]),
      ),
  });
  const syncAll = () => {
    toolSync.sync(upstreams, settings.separator);
    catalog.sync(upstreams);
  };

  const createUpstream = (entry: ServerEntry): Upstream => {
    const upstream = new Upstream(
      entry,
      {
        onTools: () => toolSync.sync(upstreams, settings.separator),
        onCatalog: () => catalog.sync(upstreams),
        onResourceUpdated: (_upstream, uri) => server.notifyResourceUpdated(uri),
        log,
      },
      {
        clientInfo: { name: 'toolshed-host', version: hostVersion },
        maxRestarts: settings.maxRestarts,
        restartDelayMs: options.restartDelayMs,
        probeTimeLimitMs: options.probeTimeLimitMs,
        stateStore: storeNow,
      },
    );
    limiters.set(upstream, createCallLimiter(entry.name, entry.rateLimit, storeNow));
    return upstream;
  };
  let upstreams: Upstream[] = config.servers.map(createUpstream);

  return {
    server,
    get upstreams() {
      return upstreams;
    },
    get auditPath() {
      return auditPath;
    },
    get toolList() {
      return settings.toolList;
    },
    async start() {
      await checkPackageOptions(config);
      if (store === undefined) {
        try {
          store =
            typeof options.state === 'object'
              ? options.state
              : await openStateStore({ location: options.state ?? join(stateDirectory(options.env), 'state.db') });
        } catch (error) {
          if (StateStoreError.isInstance(error)) throw new LocalError('config_invalid', error.message);
          throw error;
        }
        approvals.connect();
      }
      await Promise.all(upstreams.map((upstream) => upstream.start()));
    },
    async reload(next) {
      await checkPackageOptions(next);
      const previous = new Map(upstreams.map((upstream) => [upstream.entry.name, upstream]));
      const summary: ReloadSummary = { added: [], restarted: [], removed: [], unchanged: [] };
      const starting: Upstream[] = [];
      const following = next.servers.map((entry) => {
        const current = previous.get(entry.name);
        previous.delete(entry.name);
        if (current !== undefined && isDeepStrictEqual(current.entry, entry)) {
          summary.unchanged.push(entry.name);
          return current;
        }
        (current === undefined ? summary.added : summary.restarted).push(entry.name);
        const created = createUpstream(entry);
        starting.push(created);
        return created;
      });
      const stopping = upstreams.filter((upstream) => !following.includes(upstream));
      summary.removed = [...previous.keys()];
      const nextAuditPath = auditPathOf(next.options);
      const auditChanged = nextAuditPath !== auditPath || !isDeepStrictEqual(next.options.audit, settings.audit);
      settings = next.options;
      shelf.list(settings.toolList, searchTools);
      if (auditChanged) {
        audit?.close();
        auditPath = nextAuditPath;
        audit = openAudit(auditPath);
      }
      upstreams = following;
      await Promise.all(stopping.map((upstream) => upstream.stop()));
      for (const upstream of stopping) limiters.delete(upstream);
      syncAll();
      await Promise.all(starting.map((upstream) => upstream.start()));
      return summary;
    },
    approvals,
    tools() {
      return toolSync.rows();
    },
    onCallFinished(listener) {
      callListeners.add(listener);
      return () => callListeners.delete(listener);
    },
    store: storeNow,
    get auditEnabled() {
      return settings.audit.enabled;
    },
    advertiseEndpoint(url) {
      endpoint = url;
    },
    relayTarget(request, auth) {
      return store === undefined ? Promise.resolve(undefined) : relayTarget(request, auth);
    },
    async readiness() {
      if (store === undefined) return { ready: false, reason: 'the host is starting' };
      const health = await store.health();
      return health.ok ? { ready: true } : { ready: false, reason: health.reason };
    },
    async close() {
      await server.close();
    },
  };
}
