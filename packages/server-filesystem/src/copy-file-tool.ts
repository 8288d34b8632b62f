import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

// The links and special files named in the note; the rest are counted.
const namedSkips = 20;

export function createCopyFileTool(context: FilesystemServerContext): Tool {
  const { limits } = context;
  return defineTool({
    name: 'copy_file',
    title: 'Copy File',
    description: 'Copy a file or a whole directory to a new path (never over one); links inside are skipped.',
    input: () => toolArguments({ source: pathArgument(), destination: pathArgument() }),
    output: () =>
      textOutput({
        files: z.number().int(),
        directories: z.number().int(),
        bytes: z.number(),
        skipped: z.array(z.string()).describe('Links and special files not copied, below the source'),
      }),
    jsonSchemas: toolJsonSchemas.copy_file,
    // Never replaces anything, so not destructive; a second call fails on the copy the first one made.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run({ source, destination }, call) {
      const guard = await guardForCall(context, call);
      // Neither path may go through a link, even one that stays inside; the source may be in any grant.
      const from = await guard.resolve(source, { keepLastLink: true, refuseLinks: true });
      const to = await guard.resolve(destination, { access: 'write', keepLastLink: true, refuseLinks: true });
      const copied = await guard.copy(from, to, {
        maxEntries: limits.maxEntries,
        maxDepth: limits.maxDepth,
        maxBytes: limits.maxCopyBytes,
        signal: call.signal,
        progress: (done, total) => call.progress(done, total, `${done} of ${total} files`),
      });
      const counts =
        copied.directories === 0
          ? ''
          : ` (${copied.files} files, ${copied.directories} directories, ${copied.bytes} bytes)`;
      const skipped = copied.skipped;
      const note =
        skipped.length === 0
          ? undefined
          : `[Skipped ${skipped.length} links and special files: ${skipped.slice(0, namedSkips).join(', ')}` +
            `${skipped.length > namedSkips ? ', …' : ''}]`;
      return textResult(`Successfully copied ${source} to ${destination}${counts}`, { ...copied, skipped }, note);
    },
  });
}
