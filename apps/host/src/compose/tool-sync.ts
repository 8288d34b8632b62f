import type { ToolAnnotations, ToolDescriptor } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import type { ApprovalMode } from '../config/host-config.ts';
import type { ApprovalBroker } from '../console/approval-broker.ts';
import type { Upstream, UpstreamState } from '../upstream/upstream.ts';
import { approvalRequirement } from './approval-rule.ts';
import { type AssignedName, assignToolNames } from './assign-tool-names.ts';
import type { CallLimiter } from './call-limiter.ts';
import type { CallRecorder } from './call-recorder.ts';
import { createProxyTool } from './proxy-tool.ts';
import { composedToolName, matchesPattern } from './tool-names.ts';
import type { ToolShelf } from './tool-shelf.ts';

/** One row of `toolshed tools`. */
export type HostToolRow = {
  server: string;
  state: UpstreamState;
  tool: string;
  upstreamTool: string;
  annotations: ToolAnnotations | undefined;
  approval: boolean;
  /**
   * Set when other servers' tools want the name this tool would have had, so
   * none of them has it: that name, and those servers.
   */
  renamed?: { wanted: string; sharedWith: string[] } | undefined;
};

export interface ToolSyncOptions {
  /** Where the proxies go; the shelf decides whether the server lists them. */
  shelf: ToolShelf;
  log(line: string): void;
  /** Where each call is recorded. */
  audit: CallRecorder | undefined;
  limiterFor(upstream: Upstream): CallLimiter | undefined;
  /** The `toolshed.toolTimeoutMs` now. */
  hostTimeoutMs(): number | undefined;
  /** Where calls wait for a decision in the console. */
  approvals?: ApprovalBroker | undefined;
  /** The `toolshed.approval.mode` now. */
  hostApprovalMode?: (() => ApprovalMode) | undefined;
  /** Where replicas see which of them holds a parked call. */
  state?: (() => StateStore) | undefined;
  /** Where this replica answers, for a retry that reaches another one to be relayed here. */
  endpoint?: (() => string | undefined) | undefined;
}

type AssignedTool = AssignedName<
  Upstream,
  { owner: Upstream; descriptor: ToolDescriptor; name: string; identity: string }
>;

function visible(tool: string, settings: Upstream['entry']['tools']): boolean {
  if (settings?.allow !== undefined && !settings.allow.some((pattern) => matchesPattern(tool, pattern))) return false;
  return !(settings?.deny ?? []).some((pattern) => matchesPattern(tool, pattern));
}

/**
 * The host's tools, kept in step with its upstreams: every known tool is
 * named, whatever the config order (`assignToolNames`), and the shelf gains and loses
 * proxies to match (with the full tool list, clients hear it as
 * tools/list_changed). A
 * server that is down keeps its names reserved (its tools as last listed),
 * so a restart elsewhere cannot move them; a server no longer configured
 * gives them up.
 */
export function createToolSync(options: ToolSyncOptions): {
  sync(upstreams: readonly Upstream[], separator: string): void;
  rows(): HostToolRow[];
} {
  const { shelf, log } = options;
  const known = new Map<Upstream, ToolDescriptor[]>();
  const exposed = new Map<string, AssignedTool>();
  const reported = new Set<string>();
  let assigned: AssignedTool[] = [];

  return {
    sync(upstreams, separator) {
      for (const upstream of known.keys()) if (!upstreams.includes(upstream)) known.delete(upstream);
      for (const upstream of upstreams) if (upstream.state === 'up') known.set(upstream, upstream.tools);
      const claims = upstreams.flatMap((upstream) =>
        (known.get(upstream) ?? [])
          .filter((descriptor) => visible(descriptor.name, upstream.entry.tools))
          .map((descriptor) => ({
            owner: upstream,
            descriptor,
            name: composedToolName(upstream.entry.prefix ?? upstream.entry.name, separator, descriptor.name),
            identity: `${upstream.entry.name}/${descriptor.name}`,
          })),
      );
      assigned = assignToolNames(claims);
      const next = new Map(
        assigned.filter((tool) => tool.owner.state === 'up').map((tool) => [tool.exposedName, tool] as const),
      );
      for (const [name, tool] of exposed) {
        const kept = next.get(name);
        if (kept?.owner === tool.owner && kept.descriptor === tool.descriptor) continue;
        shelf.remove(name);
        exposed.delete(name);
      }
      for (const [name, tool] of next) {
        if (exposed.has(name)) continue;
        const { owner: upstream, descriptor } = tool;
        shelf.add({
          upstream,
          upstreamName: descriptor.name,
          tool: createProxyTool({
            upstream,
            descriptor,
            exposedName: name,
            audit: options.audit,
            limiter: options.limiterFor(upstream),
            hostTimeoutMs: options.hostTimeoutMs,
            approvals: options.approvals,
            hostApprovalMode: options.hostApprovalMode,
            state: options.state,
            endpoint: options.endpoint,
          }),
        });
        exposed.set(name, tool);
        const report = `${tool.identity}=${name}`;
        if (tool.sharedWith.length > 0 && !reported.has(report)) {
          reported.add(report);
          const others = tool.sharedWith.map((other) => `${other.owner.entry.name}'s ${other.descriptor.name}`);
          log(
            `[${upstream.entry.name}] tool ${descriptor.name} is named ${name}: ${tool.name} is also wanted by ${others.join(', ')} (a "prefix" on one of the servers gives plain names)`,
          );
        }
      }
    },
    rows() {
      return assigned
        .filter((tool) => tool.owner.tools.includes(tool.descriptor))
        .map(({ owner: upstream, descriptor, name, exposedName, sharedWith }) => ({
          server: upstream.entry.name,
          state: upstream.state,
          tool: exposedName,
          upstreamTool: descriptor.name,
          annotations: descriptor.annotations,
          approval: approvalRequirement(descriptor.name, descriptor.annotations, upstream.entry.approval).required,
          ...(sharedWith.length === 0
            ? {}
            : { renamed: { wanted: name, sharedWith: sharedWith.map((other) => other.owner.entry.name) } }),
        }));
    },
  };
}
