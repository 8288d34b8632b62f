import { libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// One file per entry point; the templates are read from templates/ and generated/ beside dist/.
const config: RolldownOptions = defineConfig({
  input: { index: 'src/index.ts', cli: 'src/cli.ts' },
  platform: 'node',
  external: [/^node:/, /^validate-npm-package-name/],
  output: libraryOutput,
});

export default config;
