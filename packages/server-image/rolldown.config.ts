import { binBundleBuilds, libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry stays unbundled against its dependencies, so a host that
// mounts several servers shares one mcp-core, one zod and one sharp. The bin
// is one file with its dependencies inlined: Node loads one module instead of
// a few hundred when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts' },
    platform: 'node',
    external: [
      /^node:/,
      /^@toolshed\/(mcp-core|guards)/,
      /^zod/,
      /^sharp/,
      /^undici/,
      /^tesseract\.js/,
      /^libheif-js/,
      /^pixelmatch/,
    ],
    output: libraryOutput,
  },
  // tesseract.js starts its worker thread from its own files, and libheif-js carries its WASM beside its code: both
  // stay in node_modules, as sharp's native addon does.
  ...binBundleBuilds({
    bin: 'toolshed-image',
    entry: 'src/cli.ts',
    external: [/^sharp/, /^@img\//, /^tesseract\.js/, /^libheif-js/],
  }),
]);

export default config;
