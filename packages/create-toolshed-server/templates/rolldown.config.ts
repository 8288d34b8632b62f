import { binBundleBuilds } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry stays unbundled against its dependencies, so a host that mounts this server shares one
// mcp-core and one zod with it. The bin is one file with its dependencies inlined, run with a code cache: Node
// loads one module instead of a few hundred when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\//, /^zod/],
    output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js' },
  },
  ...binBundleBuilds({ bin: '__BIN_NAME__', entry: 'src/cli.ts' }),
]);

export default config;
