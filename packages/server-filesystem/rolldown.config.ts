import { binBundleBuilds, libraryOutput } from '@toolshed/mcp-core/bin-build';
import { defineConfig, type RolldownOptions } from 'rolldown';

// The library entry and the workers stay unbundled against their
// dependencies, so a host that mounts several servers shares one mcp-core and
// one zod; the bin finds the workers beside it in dist. The document parsers
// are imported by the document worker when a document of theirs is first read. The bin is one file
// with its dependencies inlined: Node loads one module instead of some 160
// when an MCP client starts it.
const config: RolldownOptions[] = defineConfig([
  {
    input: {
      index: 'src/index.ts',
      'regex-worker': 'src/regex-worker.ts',
      'document-worker': 'src/document-worker.ts',
    },
    platform: 'node',
    external: [/^node:/, /^@toolshed\/(mcp-core|guards)/, /^zod/, /^diff/, /^unpdf/, /^mammoth/, /^read-excel-file/],
    output: libraryOutput,
  },
  ...binBundleBuilds({ bin: 'toolshed-filesystem', entry: 'src/cli.ts' }),
]);

export default config;
