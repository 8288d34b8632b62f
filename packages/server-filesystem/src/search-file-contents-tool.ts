import { fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileSystemToolError, type GuardedPath, walkDirectory } from '@toolshed/guards';
import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { compileGlob, type GlobMatcher } from './glob-pattern.ts';
import { createLineMatcher } from './line-matcher.ts';
import { textResult } from './text-result.ts';

const binarySniffBytes = 8192;
const maxLineChars = 500;

/** A glob with no `/` names a file at any depth; with one, it is matched against the relative path. */
function compileFileFilter(pattern: string): GlobMatcher {
  const matches = compileGlob(pattern);
  return pattern.includes('/')
    ? matches
    : (relativePath) => matches(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

function clip(line: string): string {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  return trimmed.length > maxLineChars ? `${trimmed.slice(0, maxLineChars)}…` : trimmed;
}

interface ContentMatch {
  path: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

export function createSearchFileContentsTool(context: FilesystemServerContext): Tool {
  const { limits } = context;
  return defineTool({
    name: 'search_file_contents',
    title: 'Search File Contents',
    description:
      'Find lines containing text, like grep (regex: true for a JavaScript regular expression): path, line number ' +
      `and line. Skips binary files and files over ${limits.maxFileBytes} bytes.`,
    input: z.object({
      path: pathArgument.describe('A directory or a file'),
      pattern: z.string().min(1).max(1000),
      regex: z.boolean().default(false),
      ignoreCase: z.boolean().default(false),
      include: z.array(z.string()).default([]).describe('Globs; without / they match names at any depth: "*.ts"'),
      exclude: z.array(z.string()).default([]).describe('Globs of files and directories to skip'),
      contextLines: z.number().int().min(0).max(10).default(0),
      maxResults: z.number().int().min(1).max(limits.maxMatches).optional(),
    }),
    output: z.object({
      content: z.string(),
      matches: z.array(
        z.object({
          path: z.string(),
          line: z.number().int(),
          text: z.string(),
          before: z.array(z.string()).optional(),
          after: z.array(z.string()).optional(),
        }),
      ),
      files_searched: z.number().int(),
      files_skipped_binary: z.number().int(),
      files_skipped_too_large: z.number().int(),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(args, call) {
      const guard = await guardForCall(context, call);
      const start = await guard.resolve(args.path);
      const includes = args.include.map(compileFileFilter);
      const excludes = args.exclude.map(compileFileFilter);
      const cap = args.maxResults ?? limits.maxMatches;
      const matcher = createLineMatcher(
        { pattern: args.pattern, regex: args.regex, ignoreCase: args.ignoreCase },
        limits.regexTimeoutMs,
      );
      const matches: ContentMatch[] = [];
      const counts = { searched: 0, binary: 0, tooLarge: 0 };
      let truncated = false;

      const readText = async (file: GuardedPath): Promise<string | undefined> => {
        const handle = await guard.openFile(file);
        try {
          const { size } = fstatSync(handle.fd);
          if (size > limits.maxFileBytes) {
            counts.tooLarge++;
            return undefined;
          }
          const bytes = await handle.readFile();
          if (bytes.subarray(0, binarySniffBytes).includes(0)) {
            counts.binary++;
            return undefined;
          }
          return bytes.toString('utf8');
        } finally {
          await handle.close();
        }
      };

      const searchFile = async (file: GuardedPath, shownPath: string, skipUnreadable: boolean) => {
        // A file that vanished or cannot be read is skipped during a walk; a stopped regex ends the search.
        const text = skipUnreadable ? await readText(file).catch(() => undefined) : await readText(file);
        if (text === undefined) return;
        counts.searched++;
        const found = await matcher.find(text, cap - matches.length + 1);
        if (found.length === 0) return;
        const lines = text.split('\n');
        for (const index of found) {
          if (matches.length >= cap) {
            truncated = true;
            return;
          }
          const match: ContentMatch = { path: shownPath, line: index + 1, text: clip(lines[index] as string) };
          if (args.contextLines > 0) {
            match.before = lines.slice(Math.max(0, index - args.contextLines), index).map(clip);
            match.after = lines.slice(index + 1, index + 1 + args.contextLines).map(clip);
          }
          matches.push(match);
        }
      };

      try {
        const startStats = await stat(start.path).catch((error: unknown) => {
          throw fileSystemToolError(error, args.path);
        });
        if (!startStats.isDirectory()) {
          await searchFile(start, start.path, false);
        } else {
          // Collect the files first (the walk is fast and synchronous in
          // slices), then read them one by one with progress and cancellation.
          const files: { path: string; relativePath: string }[] = [];
          await walkDirectory(start, {
            maxDepth: limits.maxDepth,
            signal: call.signal,
            cache: context.listings,
            visit(entry) {
              if (excludes.some((excluded) => excluded(entry.relativePath))) return 'skip';
              if (entry.type !== 'file') return undefined;
              if (includes.length > 0 && !includes.some((included) => included(entry.relativePath))) return undefined;
              files.push(entry);
              return undefined;
            },
          });
          for (const [index, file] of files.entries()) {
            call.signal.throwIfAborted();
            if (matches.length >= cap) {
              truncated = true;
              break;
            }
            const guarded = { path: file.path, exists: true, grant: start.grant, requested: file.relativePath };
            await searchFile(guarded, file.path, true);
            if (index % 50 === 49) call.progress(index + 1, files.length, `${index + 1} of ${files.length} files`);
          }
        }
      } finally {
        await matcher.close();
      }

      const text =
        matches.length === 0
          ? 'No matches found'
          : matches
              .map((match) => {
                const context = [
                  ...(match.before ?? []).map(
                    (line, offset) => `${match.path}-${match.line - (match.before?.length ?? 0) + offset}- ${line}`,
                  ),
                  `${match.path}:${match.line}: ${match.text}`,
                  ...(match.after ?? []).map((line, offset) => `${match.path}-${match.line + 1 + offset}- ${line}`),
                ];
                return context.join('\n');
              })
              .join(args.contextLines > 0 ? '\n--\n' : '\n');
      const skipped =
        counts.binary + counts.tooLarge > 0
          ? `[Skipped ${counts.binary} binary and ${counts.tooLarge} oversized files.]`
          : undefined;
      const note = truncated ? `[Stopped at ${cap} matches: narrow the path, the pattern or include.]` : skipped;
      return textResult(
        text,
        {
          matches,
          files_searched: counts.searched,
          files_skipped_binary: counts.binary,
          files_skipped_too_large: counts.tooLarge,
          truncated,
        },
        note,
      );
    },
  });
}
