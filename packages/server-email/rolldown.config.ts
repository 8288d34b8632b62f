import { binBundleBuilds, libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry stays unbundled against its dependencies, so a host that
// mounts several servers shares one mcp-core, one zod, one nodemailer and one imapflow. The bin
// is one file with its dependencies inlined: Node loads one module instead of
// a few hundred when an MCP client starts it. The state store stays a package of
// its own in both: it loads its database drivers (better-sqlite3 is native) from
// beside itself, and only when a send first needs it.
const stateStore = /^@toolshed\/state/;

const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts' },
    platform: 'node',
    external: [
      /^node:/,
      /^@toolshed\/(mcp-core|guards)/,
      stateStore,
      /^zod/,
      /^nodemailer/,
      /^imapflow/,
      /^mailparser/,
      /^html-to-text/,
    ],
    output: libraryOutput,
  },
  ...binBundleBuilds({ bin: 'toolshed-email', entry: 'src/cli.ts', external: [stateStore] }).map((build, index) =>
    // The bundle is CommonJS: it takes the state package with require (an ES module required, as Node allows),
    // not with a dynamic import, which Node still calls experimental inside a script run with a code cache.
    index === 0 ? { ...build, output: { ...build.output, dynamicImportInCjs: false } } : build,
  ),
]);

export default config;
