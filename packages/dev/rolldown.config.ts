import { libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// One file per entry point; declarations come from tsc (tsconfig.build.json).
const config: RolldownOptions = defineConfig({
  input: { index: 'src/index.ts', cli: 'src/cli.ts' },
  platform: 'node',
  external: [/^node:/, /^@toolshed\//, /^ajv/],
  output: libraryOutput,
});

export default config;
