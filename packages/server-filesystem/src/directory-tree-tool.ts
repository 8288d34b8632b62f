import { walkDirectory } from '@toolshed/guards';
import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { compileExclusion } from './glob-pattern.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { TreeJsonWriter } from './tree-json-writer.ts';
import { includeIgnoredArgument, walkIgnoreOptions } from './walk-ignore-filter.ts';
import { truncationFields, type WalkCut, walkLimitArguments } from './walk-limits.ts';

export function createDirectoryTreeTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'directory_tree',
    title: 'Directory Tree',
    description: 'A recursive JSON tree of entries: name, type, and children for directories.',
    // The input is built at definition: its advertised maxDepth and maxEntries bounds are this server's caps.
    input: toolArguments({
      path: pathArgument(),
      excludePatterns: z.array(z.string()).default([]).describe('Names or globs, e.g. node_modules, **/*.log'),
      ...walkLimitArguments(context.limits),
      includeIgnored: includeIgnoredArgument(),
    }),
    output: () =>
      textOutput({
        entries: z.number().int(),
        truncated: z.boolean(),
        truncated_by: z.enum(['max_entries', 'max_depth']).optional(),
      }),
    jsonSchemas: toolJsonSchemas.directory_tree,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path, excludePatterns, maxDepth, maxEntries, includeIgnored }, call) {
      const guard = await guardForCall(context, call);
      const start = await guard.resolve(path);
      const { filter, ...ignoring } = walkIgnoreOptions(start, includeIgnored);
      const excluded = compileExclusion(excludePatterns);
      const entryCap = maxEntries ?? context.limits.maxEntries;
      const writer = new TreeJsonWriter();
      let entries = 0;
      let hitEntryCap = false;
      const summary = await walkDirectory(start, {
        maxDepth: maxDepth ?? context.limits.maxDepth,
        signal: call.signal,
        cache: context.listings,
        ...ignoring,
        visit(entry) {
          if (filter?.ignores(entry) === true) return 'skip';
          if (excluded(entry.relativePath)) return 'skip';
          if (entries >= entryCap) {
            hitEntryCap = true;
            return 'stop';
          }
          entries++;
          // Links are listed as files, as the reference server lists them.
          if (entry.type === 'directory') writer.enterDirectory(entry.name);
          else writer.file(entry.name);
          return undefined;
        },
        leave() {
          writer.leaveDirectory();
        },
      });
      const truncatedBy: WalkCut = hitEntryCap ? 'max_entries' : summary.complete ? undefined : 'max_depth';
      const note =
        truncatedBy === undefined
          ? undefined
          : `[Tree cut at ${truncatedBy === 'max_entries' ? `${entryCap} entries` : `depth ${maxDepth ?? context.limits.maxDepth}`}: ` +
            'ask for a subdirectory, or add excludePatterns such as node_modules or .git.]';
      return textResult(writer.toString(), { entries, ...truncationFields(truncatedBy) }, note);
    },
  });
}
