import { libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// Both entries stay unbundled against their dependencies: the servers the host
// mounts bring native addons (better-sqlite3, sharp) and files they start as
// separate processes, which must stay where their packages put them.
// jsonc-parser's entry for Node is a UMD module whose inner requires a bundler
// cannot follow; Node loads it as it is.
const external = [/^node:/, /^@toolshed\//, /^zod/, /^better-sqlite3/, /^jsonc-parser/, /^ajv/];

const config: RolldownOptions[] = defineConfig([
  { input: { index: 'src/index.ts' }, platform: 'node', external, output: libraryOutput },
  {
    input: { toolshed: 'src/cli.ts' },
    platform: 'node',
    external,
    output: { ...libraryOutput, chunkFileNames: 'toolshed-[hash].js' },
  },
]);

export default config;
