import { binBundleBuilds, libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry and the query process stay unbundled against their
// dependencies, so a host that mounts several servers shares one mcp-core, one
// guards and one zod. The bin is one file with them inlined: Node loads one
// module instead of some 160 when an MCP client starts it.
// Database drivers stay packages of their own: better-sqlite3 is native, libpg-query loads its WebAssembly
// from beside its module, node-sql-parser's MariaDB grammar is loaded by path, and the others are loaded only
// when a database of theirs is served (ssh2, with its optional native parts, when a tunnel is).
const databaseDrivers = [
  /^better-sqlite3/,
  /^pg($|\/|-)/,
  /^libpg-query/,
  /^postgres-array/,
  /^mysql2/,
  /^node-sql-parser/,
  /^ssh2/,
];

const config: RolldownOptions[] = defineConfig([
  {
    input: { index: 'src/index.ts', 'query-process': 'src/query-process.ts' },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/(mcp-core|guards)/, /^zod/, ...databaseDrivers],
    output: libraryOutput,
  },
  ...binBundleBuilds({ bin: 'toolshed-sql', entry: 'src/cli.ts', external: databaseDrivers }),
]);

export default config;
