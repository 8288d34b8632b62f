import { defineTool, isAppOnlyTool, type Tool, toolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ToolShelf } from '../compose/tool-shelf.ts';
import { argumentProblems } from './argument-check.ts';

/**
 * `call_tool`: the other half of the `search` tool list. Checks the
 * arguments against the real tool's input schema, then runs the very proxy
 * a direct call would run, with this call's context: the same approval
 * question, rate limit, time limit, progress, cancellation and audit line
 * (which names the real tool). What the tool answers is answered as it came.
 */
export function createCallToolTool(shelf: ToolShelf): Tool {
  return defineTool({
    name: 'call_tool',
    title: 'Call a tool',
    description:
      "Runs a tool that find_tools returned. arguments must match that tool's inputSchema. Tools that change things ask the user first.",
    input: z.object({
      name: z.string().min(1).describe('The name find_tools gave.'),
      arguments: z.record(z.string(), z.unknown()).default({}),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    async run({ name, arguments: args }, call) {
      const shelved = shelf.get(name);
      if (shelved === undefined || isAppOnlyTool(shelved.tool.descriptor)) {
        return toolError(`There is no tool named ${name} now. Call find_tools and use a name it returns.`);
      }
      const problems = argumentProblems(shelved.tool.descriptor.inputSchema, args);
      if (problems !== undefined) {
        return toolError(
          `The arguments do not fit ${name}'s inputSchema: ${problems}. Fix them and call again; find_tools shows the schema.`,
        );
      }
      return shelved.tool.run(args, call) as Promise<never>;
    },
  });
}
