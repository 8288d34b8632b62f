import { walkDirectory } from '@toolshed/guards';
import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { compileGlob } from './glob-pattern.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { includeIgnoredArgument, walkIgnoreOptions } from './walk-ignore-filter.ts';
import { truncationFields, type WalkCut, walkLimitArguments } from './walk-limits.ts';

export function createSearchFilesTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'search_files',
    title: 'Search Files',
    description:
      'Find files and directories whose path below `path` matches a glob; full paths. ' +
      'To search inside files, use search_file_contents.',
    // The input is built at definition: its advertised maxDepth and maxEntries bounds are this server's caps.
    input: toolArguments({
      path: pathArgument(),
      pattern: z.string().min(1).describe('"*.ts" here, "**/*.ts" at any depth'),
      excludePatterns: z.array(z.string()).default([]).describe('Globs to skip, with all below'),
      ...walkLimitArguments(context.limits),
      includeIgnored: includeIgnoredArgument(),
    }),
    output: () =>
      textOutput({
        matches: z.number().int(),
        truncated: z.boolean(),
        truncated_by: z.enum(['max_entries', 'max_depth']).optional(),
      }),
    jsonSchemas: toolJsonSchemas.search_files,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path, pattern, excludePatterns, maxDepth, maxEntries, includeIgnored }, call) {
      const guard = await guardForCall(context, call);
      const start = await guard.resolve(path);
      const { filter, ...ignoring } = walkIgnoreOptions(start, includeIgnored);
      const matches = compileGlob(pattern);
      const exclusions = excludePatterns.map(compileGlob);
      const cap = maxEntries ?? context.limits.maxEntries;
      const found: string[] = [];
      let hitCap = false;
      const summary = await walkDirectory(start, {
        maxDepth: maxDepth ?? context.limits.maxDepth,
        signal: call.signal,
        cache: context.listings,
        ...ignoring,
        visit(entry) {
          if (filter?.ignores(entry) === true) return 'skip';
          if (exclusions.some((excluded) => excluded(entry.relativePath))) return 'skip';
          if (matches(entry.relativePath)) {
            if (found.length >= cap) {
              hitCap = true;
              return 'stop';
            }
            found.push(entry.path);
          }
          return undefined;
        },
      });
      const truncatedBy: WalkCut = hitCap ? 'max_entries' : summary.complete ? undefined : 'max_depth';
      const note =
        truncatedBy === undefined
          ? undefined
          : `[Search stopped at ${truncatedBy === 'max_entries' ? `${cap} matches` : 'the depth limit'}: narrow the path or the pattern.]`;
      const text = found.length > 0 ? found.join('\n') : 'No matches found';
      return textResult(text, { matches: found.length, ...truncationFields(truncatedBy) }, note);
    },
  });
}
