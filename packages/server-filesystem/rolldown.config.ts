import { binBundleBuilds } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry and the regex worker stay unbundled against their
// dependencies, so a host that mounts several servers shares one mcp-core and
// one zod; the bin finds the worker beside it in dist. The bin is one file
// with its dependencies inlined: Node loads one module instead of some 160
// when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts', 'regex-worker': 'src/regex-worker.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/(mcp-core|guards)/, /^zod/, /^diff/],
    output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
  },
  ...binBundleBuilds({ bin: 'toolshed-filesystem', entry: 'src/cli.ts' }),
]);

export default config;
