import { defineConfig, type RolldownOptions } from 'rolldown';

const output = { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' } as const;

// The library entry and the query process stay unbundled against their
// dependencies, so a host that mounts several servers shares one mcp-core and
// one zod. The bin is one file with mcp-core and zod inlined: Node loads one
// module instead of some 160 when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts', 'query-process': 'src/query-process.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/mcp-core/, /^zod/, /^better-sqlite3/],
    output,
  },
  {
    input: { 'toolshed-sql': 'src/cli.ts' },
    platform: 'node',
    external: [/^node:/, /^better-sqlite3/],
    output: { ...output, chunkFileNames: 'toolshed-sql-[hash].js' },
  },
]);

export default config;
