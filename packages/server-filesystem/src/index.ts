/**
 * A filesystem MCP server: a drop-in for the reference server, safer and
 * faster. Mount it in process with createFilesystemServer, or run the
 * `toolshed-filesystem` bin.
 *
 * @module
 */
export { createFilesystemServer } from './create-filesystem-server.ts';
export {
  type FilesystemLimits,
  type FilesystemServerOptions,
  filesystemServerOptions,
} from './filesystem-server-options.ts';
