import { defineConfig, type RolldownOptions } from 'rolldown';

// One file per entry point; declarations come from tsc (tsconfig.build.json).
const config: RolldownOptions = defineConfig({
  input: { index: 'src/index.ts', cli: 'src/cli.ts' },
  platform: 'node',
  external: [/^node:/, /^@toolshed\//, /^ajv/],
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
});

export default config;
