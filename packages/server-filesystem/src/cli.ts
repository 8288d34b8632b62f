/**
 * The `toolshed-filesystem` bin: allowed directories as arguments, as the
 * reference server takes them, plus flags and environment → stdio, or
 * Streamable HTTP with --http.
 */
import {
  defineCli,
  httpCliOptions,
  LocalError,
  limitOption,
  runCli,
  serve,
  withoutHttpValues,
} from '@toolshed/mcp-core';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { defaultFilesystemLimits } from './filesystem-server-options.ts';

const cli = defineCli({
  name: 'toolshed-filesystem',
  version: '0.1.0',
  summary: 'Files in the directories you allow, as an MCP server over stdio or Streamable HTTP',
  operands: {
    placeholder: 'DIR[:ro|:rw]...',
    description: 'Directories the server may use; `:ro` makes one read-only (default read-write)',
  },
  options: {
    dir: {
      type: 'list',
      env: 'TOOLSHED_FILESYSTEM_DIRS',
      placeholder: 'DIR[:ro|:rw]',
      description: 'Another allowed directory, as the arguments take them (the variable takes a comma list)',
    },
    readOnly: {
      type: 'boolean',
      env: 'TOOLSHED_FILESYSTEM_READ_ONLY',
      default: false,
      description: 'Refuse every write and do not list the write tools',
    },
    maxReadBytes: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_READ_BYTES',
      'Bytes of text one read returns at most (longer reads are cut at a line and say how to go on)',
      defaultFilesystemLimits.maxReadBytes,
    ),
    maxMediaBytes: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_MEDIA_BYTES',
      'Bytes a file may have for read_media_file',
      defaultFilesystemLimits.maxMediaBytes,
    ),
    maxFileBytes: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_FILE_BYTES',
      'Bytes a file may have to be written, edited or searched for content',
      defaultFilesystemLimits.maxFileBytes,
    ),
    maxEntries: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_ENTRIES',
      'Entries a listing, tree or file search returns at most',
      defaultFilesystemLimits.maxEntries,
    ),
    maxDepth: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_DEPTH',
      'Levels a tree or search descends at most',
      defaultFilesystemLimits.maxDepth,
    ),
    maxMatches: limitOption(
      'TOOLSHED_FILESYSTEM_MAX_MATCHES',
      'Matches search_file_contents returns at most',
      defaultFilesystemLimits.maxMatches,
    ),
    regexTimeoutMs: limitOption(
      'TOOLSHED_FILESYSTEM_REGEX_TIMEOUT_MS',
      'Milliseconds a regular expression may run on one file before the search is stopped',
      defaultFilesystemLimits.regexTimeoutMs,
    ),
    ...httpCliOptions,
  },
  examples: [
    'toolshed-filesystem ~/projects',
    'toolshed-filesystem ~/projects /srv/reference:ro',
    'toolshed-filesystem --read-only ~/notes --http 127.0.0.1:3000',
  ],
});

await runCli(cli, process.argv.slice(2), process.env, (options, operands) => {
  const { dir, ...own } = withoutHttpValues(options);
  const directories = [...operands, ...(dir ?? [])];
  if (directories.length === 0) {
    throw new LocalError(
      'config_invalid',
      'pass at least one directory to allow, as in toolshed-filesystem ~/projects',
    );
  }
  return serve(createFilesystemServer({ ...own, directories }), options);
});
