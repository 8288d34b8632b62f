import { join } from 'node:path';
import { createMcpServer, type McpServer, type ToolAnnotations } from '@toolshed/mcp-core';
import { approvalRequirement } from './compose/approval-rule.ts';
import { AuditLog } from './compose/audit-log.ts';
import { type CallLimiter, createCallLimiter } from './compose/call-limiter.ts';
import { createProxyTool } from './compose/proxy-tool.ts';
import { composedToolName, matchesPattern } from './compose/tool-names.ts';
import type { HostConfig } from './config/host-config.ts';
import { stateDirectory } from './state-directory.ts';
import { checkPackageOptions } from './upstream/mount-package.ts';
import { Upstream, type UpstreamState } from './upstream/upstream.ts';

const hostVersion = '0.1.0';

export interface CreateHostOptions {
  /** Lines for the host's log (children's stderr, restarts). Default: stderr. */
  log?: ((line: string) => void) | undefined;
  /** The first restart delay after a crash; doubles each time. Default 500 ms. */
  restartDelayMs?: number | undefined;
  /** The environment, for the default audit log place. */
  env?: NodeJS.ProcessEnv | undefined;
  /** How long a child or mounted server may leave server/discover unanswered before it counts as legacy. Default 5 s. */
  probeTimeLimitMs?: number | undefined;
}

/** One row of `toolshed tools`. */
export type HostToolRow = {
  server: string;
  state: UpstreamState;
  tool: string;
  upstreamTool: string;
  annotations: ToolAnnotations | undefined;
  approval: boolean;
};

export interface Host {
  /** The composed server: connect it to stdio, HTTP or an in-memory transport. */
  readonly server: McpServer;
  readonly upstreams: readonly Upstream[];
  /** Where audit lines go; undefined when the audit log is off. */
  readonly auditPath: string | undefined;
  /** Starts every upstream at once; resolves when each is up or has failed to start. */
  start(): Promise<void>;
  tools(): HostToolRow[];
  close(): Promise<void>;
}

function visible(tool: string, settings: Upstream['entry']['tools']): boolean {
  if (settings?.allow !== undefined && !settings.allow.some((pattern) => matchesPattern(tool, pattern))) return false;
  return !(settings?.deny ?? []).some((pattern) => matchesPattern(tool, pattern));
}

/**
 * The host: one MCP server whose tools are the tools of every configured
 * upstream, each under a prefixed, stable name. Upstreams come and go (a
 * child crashes, a server's list changes) and the host's list follows, which
 * clients hear as tools/list_changed.
 */
export function createHost(config: HostConfig, options: CreateHostOptions = {}): Host {
  const log = options.log ?? ((line: string) => process.stderr.write(`toolshed: ${line}\n`));
  const { separator, audit: auditOptions, maxRestarts } = config.options;
  const auditPath = auditOptions.enabled
    ? (auditOptions.path ?? join(stateDirectory(options.env), 'audit.jsonl'))
    : undefined;
  const audit =
    auditPath === undefined
      ? undefined
      : new AuditLog({ path: auditPath, maxBytes: auditOptions.maxBytes, files: auditOptions.files });
  const server = createMcpServer({
    name: 'toolshed',
    title: 'Toolshed Host',
    version: hostVersion,
    instructions:
      `Tools from ${config.servers.length} servers (${config.servers.map((entry) => entry.name).join(', ')}), ` +
      `each named <server>${separator}<tool>. Tools that may change or delete things ask the user first; a declined call must not be retried unless the user asks.`,
    tools: [],
    onClose: () => upstreamsClosed(),
  });
  // Closing the server (stdin ended, a signal, host.close) ends every upstream with it.
  const upstreamsClosed = () =>
    Promise.all(upstreams.map((upstream) => upstream.stop())).then(() => {
      audit?.close();
    });
  const owners = new Map<string, Upstream>();
  const exposedBy = new Map<Upstream, Set<string>>();
  const limiters = new Map<Upstream, CallLimiter | undefined>();

  const syncTools = (upstream: Upstream) => {
    const previous = exposedBy.get(upstream) ?? new Set<string>();
    for (const name of previous) {
      if (owners.get(name) === upstream) {
        server.removeTool(name);
        owners.delete(name);
      }
    }
    const current = new Set<string>();
    const { entry } = upstream;
    for (const descriptor of upstream.tools) {
      if (!visible(descriptor.name, entry.tools)) continue;
      const exposedName = composedToolName(entry.prefix ?? entry.name, separator, descriptor.name);
      const owner = owners.get(exposedName);
      if (owner !== undefined && owner !== upstream) {
        log(`[${entry.name}] tool ${descriptor.name} is hidden: ${exposedName} is already ${owner.entry.name}'s`);
        continue;
      }
      server.addTool(createProxyTool({ upstream, descriptor, exposedName, audit, limiter: limiters.get(upstream) }));
      owners.set(exposedName, upstream);
      current.add(exposedName);
    }
    exposedBy.set(upstream, current);
  };

  const upstreams = config.servers.map(
    (entry) =>
      new Upstream(
        entry,
        { onTools: syncTools, log },
        {
          clientInfo: { name: 'toolshed-host', version: hostVersion },
          maxRestarts,
          restartDelayMs: options.restartDelayMs,
          probeTimeLimitMs: options.probeTimeLimitMs,
        },
      ),
  );
  for (const upstream of upstreams)
    limiters.set(upstream, createCallLimiter(upstream.entry.name, upstream.entry.rateLimit));

  return {
    server,
    upstreams,
    auditPath,
    async start() {
      await checkPackageOptions(config);
      await Promise.all(upstreams.map((upstream) => upstream.start()));
    },
    tools() {
      return upstreams.flatMap((upstream) =>
        upstream.tools
          .filter((descriptor) => visible(descriptor.name, upstream.entry.tools))
          .map((descriptor) => ({
            server: upstream.entry.name,
            state: upstream.state,
            tool: composedToolName(upstream.entry.prefix ?? upstream.entry.name, separator, descriptor.name),
            upstreamTool: descriptor.name,
            annotations: descriptor.annotations,
            approval: approvalRequirement(descriptor.name, descriptor.annotations, upstream.entry.approval).required,
          })),
      );
    },
    async close() {
      await server.close();
    },
  };
}
