import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { serverOptions } from './server-options.ts';

/** The `__BIN_NAME__` bin, derived from the options schema. */
export const serverCli: ServerCli<typeof serverOptions> = defineServerCli({
  name: '__BIN_NAME__',
  version: packageVersion(import.meta.url),
  summary: '__DESCRIPTION__',
  options: serverOptions,
  envPrefix: '__ENV_PREFIX__',
  examples: ['__BIN_NAME__', '__BIN_NAME__ --http 127.0.0.1:3000'],
});
