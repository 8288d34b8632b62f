import { libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// One file per entry point: far fewer modules for Node to resolve and compile
// when a server starts. Declarations come from tsc (tsconfig.build.json).
const config: RolldownOptions = defineConfig({
  input: { index: 'src/index.ts', testing: 'src/testing.ts' },
  platform: 'node',
  external: [/^node:/, /^undici/, /^@toolshed\//],
  output: libraryOutput,
});

export default config;
