import { binBundleBuilds } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

const output = { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' } as const;

// The library entry stays unbundled against its dependencies, so a host that
// mounts several servers shares one mcp-core, one zod and one sharp. The bin
// is one file with its dependencies inlined: Node loads one module instead of
// a few hundred when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/(mcp-core|guards)/, /^zod/, /^sharp/, /^undici/],
    output,
  },
  ...binBundleBuilds({ bin: 'toolshed-image', entry: 'src/cli.ts', external: [/^sharp/, /^@img\//] }),
]);

export default config;
