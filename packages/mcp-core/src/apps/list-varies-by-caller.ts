import type { ServerCore } from '../engine/server-core.ts';
import { isAppOnlyTool } from './tool-view-meta.ts';

/**
 * Whether a list's answer depends on who asks: the tool list does when some
 * tool is app-only, for clients that render no views do not see it. Such a
 * list must not be cached as the same for every caller.
 */
export function listVariesByCaller(core: ServerCore, method: string): boolean {
  return method === 'tools/list' && core.tools.list().some((tool) => isAppOnlyTool(tool.descriptor));
}
