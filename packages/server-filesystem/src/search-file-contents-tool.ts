import { type DirectoryFileRead, fileSystemToolError, walkDirectory } from '@toolshed/guards';
import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { compileGlob, type GlobMatcher } from './glob-pattern.ts';
import { createLineMatcher } from './line-matcher.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { createTreeFileReader, readThroughGuard, type TreeFile } from './tree-file-reader.ts';
import { includeIgnoredArgument, walkIgnoreOptions } from './walk-ignore-filter.ts';

const binarySniffBytes = 8192;
const maxLineChars = 500;
// Reading is synchronous in slices of this length, as the walk lists.
const sliceMs = 10;
// A batch of texts for the regular expression worker: one message for many
// small files, small enough that a sound expression is done in milliseconds.
const batchMaxChars = 256 * 1024;
const batchMaxFiles = 512;
const notRead: DirectoryFileRead = { kind: 'not-a-file' };

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
      'Find lines containing text, like grep (regex: true for JavaScript regular expressions). Skips binary files ' +
      `and files over ${limits.maxFileBytes} bytes.`,
    // The input is built at definition: its advertised maxResults bound is this server's maxMatches cap.
    input: toolArguments({
      path: pathArgument().describe('A directory or a file'),
      pattern: z.string().min(1).max(1000),
      regex: z.boolean().default(false),
      ignoreCase: z.boolean().default(false),
      include: z.array(z.string()).default([]).describe('Globs; without / they match names at any depth: "*.ts"'),
      exclude: z.array(z.string()).default([]),
      contextLines: z.number().int().min(0).max(10).default(0),
      maxResults: z.number().int().min(1).max(limits.maxMatches).optional(),
      includeIgnored: includeIgnoredArgument(),
    }),
    output: () =>
      textOutput({
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
    jsonSchemas: toolJsonSchemas.search_file_contents,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // A search of a large tree still running after two seconds goes on as a task for clients that take tasks.
    // The client's roots are asked first, before it can become one; its progress is then the task's status.
    task: 'optional',
    async run(args, call) {
      const guard = await guardForCall(context, call);
      const start = await guard.resolve(args.path);
      const includes = args.include.map(compileFileFilter);
      const excludes = args.exclude.map(compileFileFilter);
      const cap = args.maxResults ?? limits.maxMatches;
      const query = { pattern: args.pattern, regex: args.regex, ignoreCase: args.ignoreCase };
      const matcher = createLineMatcher(query, limits.regexTimeoutMs, call.signal);
      // Files without the literal's bytes are passed over undecoded: most files, in most searches.
      const literalBytes =
        args.regex || args.ignoreCase || args.pattern.includes('\uFFFD') ? undefined : Buffer.from(args.pattern);
      const matches: ContentMatch[] = [];
      const counts = { searched: 0, binary: 0, tooLarge: 0 };
      let truncated = false;

      /** The file's text when it is to be searched; counts what is skipped. */
      const textOf = (read: DirectoryFileRead): string | undefined => {
        if (read.kind === 'not-a-file') return undefined;
        if (read.kind === 'too-large') {
          counts.tooLarge++;
          return undefined;
        }
        if (read.bytes.subarray(0, binarySniffBytes).includes(0)) {
          counts.binary++;
          return undefined;
        }
        counts.searched++;
        if (literalBytes !== undefined && read.bytes.indexOf(literalBytes) === -1) return undefined;
        return read.bytes.toString('utf8');
      };

      const addMatches = (shownPath: string, text: string, found: readonly number[]) => {
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
        // Loaded here, not imported, to keep node:fs/promises off the start-up path.
        const { stat } = process.getBuiltinModule('node:fs/promises');
        const startStats = await stat(start.path).catch((error: unknown) => {
          throw fileSystemToolError(error, args.path);
        });
        if (!startStats.isDirectory()) {
          const text = textOf(await readThroughGuard(guard, start, limits.maxFileBytes));
          if (text !== undefined) {
            const [found = []] = await matcher.find([text], cap + 1);
            addMatches(start.path, text, found);
          }
        } else {
          const files: TreeFile[] = [];
          const { filter, ...ignoring } = walkIgnoreOptions(start, args.includeIgnored);
          await walkDirectory(start, {
            maxDepth: limits.maxDepth,
            signal: call.signal,
            cache: context.listings,
            ...ignoring,
            visit(entry) {
              if (filter?.ignores(entry) === true) return 'skip';
              if (excludes.some((excluded) => excluded(entry.relativePath))) return 'skip';
              if (entry.type !== 'file') return undefined;
              if (includes.length > 0 && !includes.some((included) => included(entry.relativePath))) return undefined;
              files.push(entry);
              return undefined;
            },
          });
          await searchFiles(files);
        }
      } finally {
        await matcher.close();
      }

      /**
       * Reads synchronously in slices (a small file costs a few system calls,
       * less than one trip through the thread pool) and hands the texts to the
       * matcher in batches; a regular expression runs in its worker on one
       * batch while the next is read. Cancellation and progress between slices.
       */
      async function searchFiles(files: readonly TreeFile[]): Promise<void> {
        const reader = createTreeFileReader(guard, start);
        let batch: { path: string; text: string }[] = [];
        let batchChars = 0;
        let inFlight: Promise<void> | undefined;
        const flush = async () => {
          // One batch in the worker while the next is read, no more: its time limit is its own.
          await inFlight;
          const sent = batch;
          batch = [];
          batchChars = 0;
          const found = matcher.find(
            sent.map((file) => file.text),
            cap - matches.length + 1,
          );
          inFlight = found.then((lines) => {
            for (const [index, file] of sent.entries()) addMatches(file.path, file.text, lines[index] ?? []);
          });
          // Settled by the next flush or at the end; until then a failure must not go unhandled.
          inFlight.catch(() => undefined);
        };
        try {
          let sliceStart = performance.now();
          for (const [index, file] of files.entries()) {
            if (matches.length >= cap) {
              truncated = true;
              break;
            }
            if (performance.now() - sliceStart > sliceMs) {
              await new Promise((resolve) => setImmediate(resolve));
              call.signal.throwIfAborted();
              call.progress(index, files.length, `${index} of ${files.length} files`);
              sliceStart = performance.now();
            }
            let read: DirectoryFileRead;
            try {
              const pending = reader.read(file, limits.maxFileBytes);
              // Only the fallback without descriptors is asynchronous; awaiting the rest would yield once per
              // file. There, as always, a file swapped or refused on its own is skipped.
              read = pending instanceof Promise ? await pending.catch(() => notRead) : pending;
            } catch (error) {
              // A file that vanished or cannot be read is skipped; a directory that leads out ends the search.
              if (ToolError.isInstance(error)) throw error;
              continue;
            }
            const text = textOf(read);
            if (text === undefined) continue;
            batch.push({ path: file.path, text });
            batchChars += text.length;
            if (batchChars >= batchMaxChars || batch.length >= batchMaxFiles) await flush();
          }
          if (batch.length > 0) await flush();
          await inFlight;
          call.signal.throwIfAborted();
        } finally {
          // Every directory is checked once more before anything read from it is answered.
          reader.close();
        }
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
