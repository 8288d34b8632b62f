import type { Catalog } from '../catalog/catalog.ts';
import type { Prompt } from '../prompts/define-prompt.ts';
import type { Implementation, ServerCapabilities } from '../protocol/mcp-types.ts';
import type { Resource } from '../resources/define-resource.ts';
import type { ResourceTemplate } from '../resources/define-resource-template.ts';
import type { ReportServerError } from '../tools/call-tool.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { RequestTelemetry } from './request-telemetry.ts';

/** What to do when a tool asks the user but the client cannot ask. */
export type ElicitationUnavailablePolicy = 'fail' | 'decline';

/** The lists a client can be told have changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** What connections hear from their server. */
export type ServerEvent = { type: 'list_changed'; list: ListKind } | { type: 'resource_updated'; uri: string };

/**
 * Everything a connection needs from its server, shared by every connection
 * and holding no per-connection state: that is what lets both protocol eras
 * and many connections run on one server.
 */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly tools: Catalog<Tool>;
  readonly prompts: Catalog<Prompt>;
  readonly resources: Catalog<Resource>;
  readonly resourceTemplates: Catalog<ResourceTemplate>;
  readonly pageSize: number;
  readonly elicitationUnavailable: ElicitationUnavailablePolicy;
  readonly report: ReportServerError;
  /** Spans and metrics for each request; `undefined` when telemetry is off. */
  readonly telemetry: RequestTelemetry | undefined;
  /** What the server offers now; read at each initialize. */
  capabilities(): ServerCapabilities;
  /** Subscribes to server events; returns the unsubscribe function. */
  subscribe(listener: (event: ServerEvent) => void): () => void;
}
