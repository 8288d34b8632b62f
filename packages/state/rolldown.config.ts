import { libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// One file per entry point; the engines' drivers stay external and load on first use.
const config: RolldownOptions = defineConfig({
  input: { index: 'src/index.ts', testing: 'src/testing.ts' },
  platform: 'node',
  external: [/^node:/, /^@toolshed\//, 'better-sqlite3', 'pg'],
  output: libraryOutput,
});

export default config;
