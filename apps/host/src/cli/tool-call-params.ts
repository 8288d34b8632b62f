import type { Host } from '../create-host.ts';

/**
 * The `tools/call` parameters that run one of the host's tools by its
 * exposed name: the tool itself with the full tool list, `call_tool` naming
 * it with the search list, where the tool is not listed on its own.
 */
export function toolCallParams(host: Host, tool: string, args: Record<string, unknown>): Record<string, unknown> {
  return host.toolList === 'search'
    ? { name: 'call_tool', arguments: { name: tool, arguments: args } }
    : { name: tool, arguments: args };
}
