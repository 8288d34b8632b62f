import { binBundleBuilds, libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry stays unbundled against its dependencies, so a host that
// mounts several servers shares one mcp-core, one guards, one zod and one undici. The bin
// is one file with its dependencies inlined: Node loads one module instead of
// a few hundred when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/(mcp-core|guards)/, /^zod/, /^undici/],
    output: libraryOutput,
  },
  ...binBundleBuilds({ bin: 'toolshed-weather', entry: 'src/cli.ts' }),
]);

export default config;
