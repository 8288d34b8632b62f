import { DirectoryListingCache, PathGuard } from '@toolshed/guards';
import { createMcpServer, type McpServer, packageVersion, parseOptions, type Tool } from '@toolshed/mcp-core';
import { createApplyReviewedEditTool } from './apply-reviewed-edit-tool.ts';
import { createCopyFileTool } from './copy-file-tool.ts';
import { createCreateDirectoryTool } from './create-directory-tool.ts';
import { createDeleteFileTool } from './delete-file-tool.ts';
import { createDirectoryTreeTool } from './directory-tree-tool.ts';
import { createDocumentThreads } from './document-text-thread.ts';
import { createEditFileTool } from './edit-file-tool.ts';
import { createEditReviewView } from './edit-review-view.ts';
import type { FilesystemServerContext } from './filesystem-server-context.ts';
import { type FilesystemServerOptions, filesystemServerOptions } from './filesystem-server-options.ts';
import { createGetFileInfoTool } from './get-file-info-tool.ts';
import { createListAllowedDirectoriesTool } from './list-allowed-directories-tool.ts';
import { createListDirectoryTool } from './list-directory-tool.ts';
import { createListDirectoryWithSizesTool } from './list-directory-with-sizes-tool.ts';
import { createMoveFileTool } from './move-file-tool.ts';
import { createReadDocumentTool } from './read-document-tool.ts';
import { createReadMediaFileTool } from './read-media-file-tool.ts';
import { createReadMultipleFilesTool } from './read-multiple-files-tool.ts';
import { createReadTextFileTool } from './read-text-file-tool.ts';
import { createSearchFileContentsTool } from './search-file-contents-tool.ts';
import { createSearchFilesTool } from './search-files-tool.ts';
import { createWriteFileTool } from './write-file-tool.ts';

const serverVersion = packageVersion(import.meta.url);

/**
 * A filesystem server with the reference server's tools, parameters and
 * result shapes, behind mcp-core's path guard: every path is checked by
 * its real path and every opened file verified, grants are read-only or
 * read-write, and a client's roots can only narrow them. Started without
 * directories, it takes the client's roots as its grants, as the reference
 * server does. Write tools are not listed when nothing is writable.
 *
 * @example
 * const server = createFilesystemServer({ directories: ['~/notes', '/srv/docs:ro'] });
 * await server.connect(createStdioServerTransport());
 */
export function createFilesystemServer(input: FilesystemServerOptions): McpServer {
  const options = parseOptions(filesystemServerOptions, input, '@toolshed/server-filesystem options');
  const guard = PathGuard.create(options.directories, { readOnly: options.readOnly });
  const rootsOnly = options.directories.length === 0;
  const context: FilesystemServerContext = {
    guard,
    rootsOnly,
    limits: options.limits,
    narrowed: new WeakMap(),
    listings: new DirectoryListingCache(),
    documentThreads: createDocumentThreads(),
  };
  const tools: Tool[] = [
    createReadTextFileTool(context, 'read_text_file'),
    createReadTextFileTool(context, 'read_file'),
    createReadMediaFileTool(context),
    createReadMultipleFilesTool(context),
    createReadDocumentTool(context),
    createListDirectoryTool(context),
    createListDirectoryWithSizesTool(context),
    createDirectoryTreeTool(context),
    createSearchFilesTool(context),
    createSearchFileContentsTool(context),
    createGetFileInfoTool(context),
    createListAllowedDirectoriesTool(context),
  ];
  // Without directories the grants come from the client's roots, writable unless the server is read-only.
  if (guard.writable || (rootsOnly && !options.readOnly)) {
    tools.push(
      createWriteFileTool(context),
      createEditFileTool(context),
      createApplyReviewedEditTool(context),
      createCreateDirectoryTool(context),
      createMoveFileTool(context),
      createCopyFileTool(context),
      createDeleteFileTool(context),
    );
  }
  return createMcpServer({
    name: 'toolshed-filesystem',
    title: 'Toolshed Filesystem',
    version: serverVersion,
    instructions:
      'Files in the allowed directories only (list_allowed_directories shows them). Paths may be absolute or ' +
      'relative to an allowed directory. Use search_files to find files by name, search_file_contents to find ' +
      'text in them, read_text_file with offset/limit for long files. ' +
      (guard.writable ? 'Writes are atomic; some directories may be read-only.' : 'This server is read-only.'),
    tools,
    resources: tools.some((tool) => tool.name === 'edit_file') ? [createEditReviewView()] : [],
    onClose: () => context.documentThreads.close(),
  });
}
