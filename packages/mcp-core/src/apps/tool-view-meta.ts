import { LocalError } from '../errors/local-error.ts';

/** Who may call a tool: the model, a view, or both. */
export type ToolVisibility = 'model' | 'app';

export interface ToolViewOptions {
  /** The view's `ui://` resource, shown with the tool's results. Absent for an app-only tool without a view. */
  resourceUri?: string;
  /**
   * Default `['model', 'app']`. `['app']`: only views may call the tool; it is
   * left out of `tools/list` for clients that render no views, so what it
   * returns never enters a model's context.
   */
  visibility?: readonly ToolVisibility[];
}

/**
 * A tool's `_meta` for MCP Apps: `ui.resourceUri` and `ui.visibility`, and
 * the flat `ui/resourceUri` key that older clients read.
 *
 * @example
 * defineTool({ name: 'query', meta: toolViewMeta({ resourceUri: 'ui://sql/query' }), ... });
 * defineTool({ name: 'query_page', meta: toolViewMeta({ visibility: ['app'] }), ... });
 */
export function toolViewMeta(options: ToolViewOptions): Record<string, unknown> {
  const { resourceUri, visibility } = options;
  const ui: Record<string, unknown> = {};
  if (resourceUri !== undefined) {
    if (!resourceUri.startsWith('ui://')) {
      throw new LocalError(
        'tool_definition_invalid',
        `A view's resourceUri must start with ui://; got "${resourceUri}"`,
      );
    }
    ui.resourceUri = resourceUri;
  }
  if (visibility !== undefined) {
    if (visibility.length === 0 || !visibility.every((scope) => scope === 'model' || scope === 'app')) {
      throw new LocalError('tool_definition_invalid', 'A tool\'s visibility lists "model", "app" or both');
    }
    ui.visibility = [...visibility];
  }
  return resourceUri === undefined ? { ui } : { ui, 'ui/resourceUri': resourceUri };
}

/** Whether a tool descriptor says only views may call it (`_meta.ui.visibility` without "model"). */
export function isAppOnlyTool(descriptor: { readonly _meta?: Record<string, unknown> | undefined }): boolean {
  const ui = descriptor._meta?.ui as { visibility?: unknown } | undefined;
  const visibility = ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}
