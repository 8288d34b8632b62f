import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { filesystemServerOptions } from './filesystem-server-options.ts';

/** The `toolshed-filesystem` bin, derived from the options schema; directories are its arguments, as the reference server takes them. */
export const filesystemCli: ServerCli<typeof filesystemServerOptions> = defineServerCli({
  name: 'toolshed-filesystem',
  version: packageVersion(import.meta.url),
  summary: 'Files in the directories you allow, as an MCP server over stdio or Streamable HTTP',
  options: filesystemServerOptions,
  envPrefix: 'TOOLSHED_FILESYSTEM',
  operands: {
    option: 'directories',
    placeholder: 'DIR[:ro|:rw]...',
    description: 'Directories the server may use; `:ro` makes one read-only (default read-write)',
  },
  examples: [
    'toolshed-filesystem ~/projects',
    'toolshed-filesystem ~/projects /srv/reference:ro',
    'toolshed-filesystem --read-only ~/notes --http 127.0.0.1:3000',
  ],
});
