import { binBundleBuilds } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

const output = { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' } as const;

// The library entry stays unbundled against its dependencies, so a host that
// mounts several servers shares one mcp-core, one zod, one nodemailer and one imapflow. The bin
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
      /^nodemailer/,
      /^imapflow/,
      /^mailparser/,
      /^html-to-text/,
    ],
    output,
  },
  ...binBundleBuilds({ bin: 'toolshed-email', entry: 'src/cli.ts' }),
]);

export default config;
