import type { CallToolResult } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import type { ConsoleCalls } from './console-calls.ts';
import { findTool } from './try-it-page.ts';
import type { ViewMount, ViewMounts } from './view-mounts.ts';

export interface ToolViewRequest {
  host: Host;
  calls: ConsoleCalls;
  mounts: ViewMounts;
  user: string;
  /** The exposed name of the tool whose call is shown. */
  tool: string;
  toolInput: Record<string, unknown>;
  toolResult?: CallToolResult | undefined;
  consoleOrigin: string;
  /** Reuses the mount of a page drawn again: a call's id, an approval's. */
  key: string;
}

/** The `ui://` view a tool declares in `_meta.ui.resourceUri` (or the flat key older servers set). */
function viewUriOf(meta: Record<string, unknown> | undefined): string | undefined {
  const ui = meta?.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/**
 * Mounts the view of a tool for a console page, read through the host as the
 * user: undefined when the tool declares none, is gone, or its view cannot be
 * read — the page then shows the result as text alone, as it always does.
 */
export async function mountToolView(request: ToolViewRequest): Promise<ViewMount | undefined> {
  const kept = request.mounts.kept(request.key, request.user, request.consoleOrigin);
  if (kept !== undefined) return kept;
  const served = findTool(request.host, request.tool);
  const uri = viewUriOf(served?.descriptor._meta);
  if (served === undefined || uri === undefined) return undefined;
  const view = await request.calls.readView(request.user, uri).catch(() => undefined);
  if (view === undefined) return undefined;
  return request.mounts.mount(
    {
      user: request.user,
      server: served.row.server,
      tool: request.tool,
      view,
      toolInput: request.toolInput,
      toolResult: request.toolResult,
      consoleOrigin: request.consoleOrigin,
    },
    request.key,
  );
}
