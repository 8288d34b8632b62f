import { Catalog } from '../catalog/catalog.ts';
import type { Prompt } from '../prompts/define-prompt.ts';
import type { Implementation, ServerCapabilities } from '../protocol/mcp-types.ts';
import type { Resource } from '../resources/define-resource.ts';
import type { ResourceTemplate } from '../resources/define-resource-template.ts';
import type { ReportServerError } from '../tools/call-tool.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { RequestTelemetry } from './request-telemetry.ts';
import type { ElicitationUnavailablePolicy, ServerCore, ServerEvent } from './server-core.ts';

export interface ServerCoreOptions {
  info: Implementation;
  instructions: string | undefined;
  pageSize: number;
  elicitationUnavailable: ElicitationUnavailablePolicy;
  report: ReportServerError;
  telemetry: RequestTelemetry | undefined;
  /** Whether resources and prompts are offered even while none is registered (they may come later). */
  offerResources: boolean;
  offerPrompts: boolean;
}

/** Builds the shared state of one server: its catalogs and the event fan-out to its connections. */
export function createServerCore(options: ServerCoreOptions): ServerCore & { emit(event: ServerEvent): void } {
  const listeners = new Set<(event: ServerEvent) => void>();
  const emit = (event: ServerEvent): void => {
    for (const listener of listeners) listener(event);
  };
  const tools = new Catalog<Tool>('tool', () => emit({ type: 'list_changed', list: 'tools' }));
  const prompts = new Catalog<Prompt>('prompt', () => emit({ type: 'list_changed', list: 'prompts' }));
  const resources = new Catalog<Resource>('resource', () => emit({ type: 'list_changed', list: 'resources' }));
  const resourceTemplates = new Catalog<ResourceTemplate>('resource template', () =>
    emit({ type: 'list_changed', list: 'resources' }),
  );
  return {
    info: options.info,
    instructions: options.instructions,
    tools,
    prompts,
    resources,
    resourceTemplates,
    pageSize: options.pageSize,
    elicitationUnavailable: options.elicitationUnavailable,
    report: options.report,
    telemetry: options.telemetry,
    capabilities() {
      const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
      const hasResources = options.offerResources || resources.size > 0 || resourceTemplates.size > 0;
      const hasPrompts = options.offerPrompts || prompts.size > 0;
      if (hasResources) capabilities.resources = { subscribe: true, listChanged: true };
      if (hasPrompts) capabilities.prompts = { listChanged: true };
      if (hasPrompts || resourceTemplates.size > 0) capabilities.completions = {};
      return capabilities;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
  };
}
