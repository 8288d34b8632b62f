import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createDeleteFileTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'delete_file',
    title: 'Delete File',
    description: 'Delete a file or link (not its target); a whole directory only with recursive.',
    input: () => toolArguments({ path: pathArgument(), recursive: z.boolean().default(false) }),
    output: () => textOutput({ files: z.number().int(), directories: z.number().int() }),
    jsonSchemas: toolJsonSchemas.delete_file,
    // Destructive, so a host asks its user first. Idempotent: a second call finds nothing more to delete.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run({ path, recursive }, call) {
      const guard = await guardForCall(context, call);
      // The entry itself: a link is deleted, never what it points to.
      const target = await guard.resolve(path, { access: 'write', keepLastLink: true });
      if (!target.exists) throw new ToolError(`"${path}" does not exist.`);
      const deleted = await guard.remove(target, {
        recursive,
        maxEntries: context.limits.maxEntries,
        maxDepth: context.limits.maxDepth,
        signal: call.signal,
      });
      const counts =
        deleted.directories === 0 ? '' : ` (${deleted.files} files and ${deleted.directories} directories)`;
      return textResult(`Successfully deleted ${path}${counts}`, {
        files: deleted.files,
        directories: deleted.directories,
      });
    },
  });
}
