import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { imageServerOptions } from './image-server-options.ts';

/** The `toolshed-image` bin, derived from the options schema. */
export const imageCli: ServerCli<typeof imageServerOptions> = defineServerCli({
  name: 'toolshed-image',
  version: packageVersion(import.meta.url),
  summary: 'Image tools on sharp that return images a model can see, as an MCP server over stdio or Streamable HTTP',
  options: imageServerOptions,
  envPrefix: 'TOOLSHED_IMAGE',
  operands: {
    option: 'directories',
    placeholder: 'DIR...',
    description: 'Directories images may be read from (never written)',
  },
  examples: [
    'toolshed-image ~/Pictures',
    'toolshed-image ~/Pictures --output-dir ~/Pictures/edited',
    'toolshed-image --allow-urls --output-dir /srv/images/out --http 127.0.0.1:3000',
  ],
});
