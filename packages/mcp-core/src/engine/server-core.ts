import type { Implementation, ServerCapabilities } from '../protocol/mcp-types.ts';
import type { ReportServerError } from '../tools/call-tool.ts';
import type { ToolRegistry } from '../tools/tool-registry.ts';

/** What to do when a tool asks the user but the client cannot ask. */
export type ElicitationUnavailablePolicy = 'fail' | 'decline';

/**
 * Everything a connection needs from its server, shared by every connection
 * and holding no per-connection state: that is what lets both protocol eras
 * and many connections run on one server.
 */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly capabilities: ServerCapabilities;
  readonly tools: ToolRegistry;
  readonly pageSize: number;
  readonly elicitationUnavailable: ElicitationUnavailablePolicy;
  readonly report: ReportServerError;
  /** Subscribes to tool list changes; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
}
