import { defineConfig, type RolldownOptions } from 'rolldown';
import { libraryOutput } from './src/bin-build.ts';

// One file per entry point: far fewer modules for Node to resolve and compile
// when a server starts. Declarations come from tsc (tsconfig.build.json).
const config: RolldownOptions = defineConfig({
  input: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    'bin-start': 'src/bin-start.ts',
    'bin-build': 'src/bin-build.ts',
    // A file of its own, so that a bin's bundle can swap it for a static import of zod (see src/bin-build.ts).
    'zod-module': 'src/options/zod-module.ts',
  },
  platform: 'node',
  external: [
    /^node:/,
    /^zod/,
    /^ajv/,
    /^jose/,
    /^@cfworker\//,
    /^@modelcontextprotocol\//,
    /^@opentelemetry\//,
    /^rolldown/,
  ],
  output: libraryOutput,
});

export default config;
