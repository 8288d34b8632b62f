import { defineTool, isAppOnlyTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ToolShelf } from '../compose/tool-shelf.ts';
import { rankTools } from './tool-ranking.ts';

const foundTool = z.object({
  name: z.string(),
  server: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.record(z.string(), z.unknown()).optional(),
});

/**
 * `find_tools`: the search half of the host's `search` tool list. Ranks
 * the tools on the shelf now (so it sees every upstream change, although
 * the client hears of none) and answers with the full definitions of the
 * best, which is what a model needs to call one through `call_tool`.
 */
export function createFindToolsTool(shelf: ToolShelf): Tool {
  return defineTool({
    name: 'find_tools',
    title: 'Find tools',
    description:
      'Searches the tools of every connected server by what they do and returns the best matches with their full definitions. Call this before call_tool.',
    input: z.object({
      query: z.string().min(1).describe("What the tool should do, e.g. 'read a file'."),
      server: z.string().optional().describe("Only this server's tools (see list_servers)."),
      limit: z.number().int().min(1).max(20).default(5).describe('Most tools returned.'),
    }),
    output: z.object({ tools: z.array(foundTool), note: z.string().optional() }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run({ query, server, limit }) {
      const candidates = shelf
        .all()
        // Tools only views may call are not for a model: search mode shows no views, so they are never found.
        .filter((entry) => !isAppOnlyTool(entry.tool.descriptor))
        .filter((entry) => server === undefined || entry.upstream.entry.name === server)
        .map((entry) => ({ name: entry.tool.name, descriptor: entry.tool.descriptor, entry }));
      const tools = rankTools(candidates, query, limit).map(({ descriptor, entry }) => ({
        name: descriptor.name,
        server: entry.upstream.entry.name,
        ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
        ...(descriptor.description === undefined ? {} : { description: descriptor.description }),
        inputSchema: descriptor.inputSchema,
        ...(descriptor.annotations === undefined ? {} : { annotations: { ...descriptor.annotations } }),
      }));
      if (tools.length > 0) return { tools };
      const note =
        candidates.length === 0
          ? `No tools are available${server === undefined ? '' : ` from a server named ${server}`}; list_servers shows what is connected.`
          : 'No tool matched; try other words, or fewer.';
      return { tools, note };
    },
  });
}
