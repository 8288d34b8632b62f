import { join } from 'node:path';
import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { formatSize } from './format-size.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createListDirectoryWithSizesTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'list_directory_with_sizes',
    title: 'List Directory with Sizes',
    description: `List a directory's entries with sizes (a link's own), marked [FILE] or [DIR]; at most ${context.limits.maxEntries}.`,
    input: () =>
      toolArguments({
        path: pathArgument(),
        sortBy: z.enum(['name', 'size']).default('name'),
      }),
    output: () =>
      textOutput({
        files: z.number().int(),
        directories: z.number().int(),
        total_bytes: z.number(),
        truncated: z.boolean(),
      }),
    jsonSchemas: toolJsonSchemas.list_directory_with_sizes,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path, sortBy }, call) {
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path);
      const listed = (await guard.readDirectory(target)).slice(0, context.limits.maxEntries + 1);
      const truncated = listed.length > context.limits.maxEntries;
      // Loaded here, not imported, to keep node:fs/promises off the start-up path.
      const { lstat } = process.getBuiltinModule('node:fs/promises');
      const entries = await Promise.all(
        listed.slice(0, context.limits.maxEntries).map(async (entry) => {
          // lstat: the size of a link is its own; following it could report on a file outside.
          const stats = await lstat(join(target.path, entry.name)).catch(() => undefined);
          return { name: entry.name, isDirectory: entry.isDirectory(), size: stats?.size ?? 0 };
        }),
      );
      entries.sort((a, b) => (sortBy === 'size' ? b.size - a.size : a.name.localeCompare(b.name)));
      const files = entries.filter((entry) => !entry.isDirectory);
      const totalBytes = files.reduce((sum, entry) => sum + entry.size, 0);
      const lines = entries.map(
        (entry) =>
          `${entry.isDirectory ? '[DIR]' : '[FILE]'} ${entry.name.padEnd(30)} ${entry.isDirectory ? '' : formatSize(entry.size).padStart(10)}`,
      );
      lines.push(
        '',
        `Total: ${files.length} files, ${entries.length - files.length} directories`,
        `Combined size: ${formatSize(totalBytes)}`,
      );
      return textResult(
        lines.join('\n'),
        { files: files.length, directories: entries.length - files.length, total_bytes: totalBytes, truncated },
        truncated ? `[Only the first ${context.limits.maxEntries} entries are listed.]` : undefined,
      );
    },
  });
}
