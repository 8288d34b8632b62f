import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createListDirectoryTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'list_directory',
    title: 'List Directory',
    description: `List a directory's entries, marked [FILE] or [DIR]; at most ${context.limits.maxEntries}.`,
    input: () => toolArguments({ path: pathArgument() }),
    output: () => textOutput({ entries: z.number().int(), truncated: z.boolean() }),
    jsonSchemas: toolJsonSchemas.list_directory,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path }, call) {
      const guard = await guardForCall(context, call);
      const entries = await guard.readDirectory(await guard.resolve(path));
      const shown = entries.slice(0, context.limits.maxEntries);
      const text = shown.map((entry) => `${entry.isDirectory() ? '[DIR]' : '[FILE]'} ${entry.name}`).join('\n');
      const truncated = shown.length < entries.length;
      const note = truncated
        ? `[${entries.length - shown.length} more entries not shown; search_files with a pattern finds specific ones.]`
        : undefined;
      return textResult(text, { entries: entries.length, truncated }, note);
    },
  });
}
