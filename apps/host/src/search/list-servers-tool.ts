import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ToolShelf } from '../compose/tool-shelf.ts';
import type { Upstream } from '../upstream/upstream.ts';

/** `list_servers`: what the host is connected to, for a model choosing where to search. */
export function createListServersTool(shelf: ToolShelf, upstreams: () => readonly Upstream[]): Tool {
  return defineTool({
    name: 'list_servers',
    title: 'List servers',
    description: 'Lists the connected servers with their state, protocol era and number of tools.',
    input: z.object({}),
    output: z.object({
      servers: z.array(
        z.object({
          name: z.string(),
          state: z.enum(['starting', 'up', 'down', 'failed', 'stopped']),
          era: z.enum(['modern', 'legacy', 'unknown']),
          tools: z.number().int(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run() {
      const counts = new Map<Upstream, number>();
      for (const { upstream } of shelf.all()) counts.set(upstream, (counts.get(upstream) ?? 0) + 1);
      return {
        servers: upstreams().map((upstream) => ({
          name: upstream.entry.name,
          state: upstream.state,
          era: upstream.identity?.era ?? ('unknown' as const),
          tools: counts.get(upstream) ?? 0,
        })),
      };
    },
  });
}
