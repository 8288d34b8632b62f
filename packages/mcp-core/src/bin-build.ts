/**
 * `@toolshed/mcp-core/bin-build`: the rolldown builds of a package, for its
 * rolldown.config.ts: the output of its library (`libraryOutput`), and its
 * bin's builds (`binBundleBuilds`): the bin's code with its dependencies
 * inlined as one CommonJS file (`dist/<bin>.cjs`), and a small ES module
 * (`dist/<bin>.js`, what the package's `bin` file imports) that runs it with a
 * code cache taken after start-up (see cli/run-bundle-with-code-cache.ts).
 *
 * The bundle is CommonJS because only a classic script can be given a code
 * cache made after it ran. It is written in ASCII without comments: Node
 * decodes a source with any other character as two-byte text, and every byte
 * is read and hashed at each start. Its first line is a hash of the rest, the
 * key of its cache.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { BuildOptions, OutputOptions, RolldownPlugin } from 'rolldown';

/**
 * A library's output: ES modules, one file an entry, in ASCII and without doc
 * comments (they are in the declarations). V8 keeps each module's source for
 * as long as the process runs, two bytes a character if any one of them is
 * not Latin-1: one dash in an error message was enough.
 */
export const libraryOutput: OutputOptions = {
  dir: 'dist',
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'shared-[hash].js',
  charset: 'ascii',
  comments: { legal: true, annotation: true, jsdoc: false },
};

// The start module's runner, beside this file: bin-start.ts in the sources, bin-start.js once built.
const loader = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './bin-start.ts' : './bin-start.js', import.meta.url),
);

/** Puts the hash of each chunk's code on its first line. */
const contentHashLine: RolldownPlugin = {
  name: 'content-hash-line',
  renderChunk(code) {
    return `// ${createHash('sha256').update(code).digest('hex')}\n${code}`;
  },
};

/**
 * The engine loads zod with require() when an option schema first needs it
 * (options/zod-module.ts), so a server without zod never loads it; a bundle
 * has zod inlined, so there the module imports it.
 */
const inlinedZod: RolldownPlugin = {
  name: 'mcp-core-inlined-zod',
  load(id) {
    if (!/[\\/]mcp-core[\\/](src[\\/]options|dist)[\\/]zod-module\.(ts|js)$/.test(id)) return undefined;
    return "import * as zod from 'zod';\nexport function zodModule() { return zod; }\n";
  },
};

/** The entry of `dist/<bin>.js`: runs the bundle and waits for the bin's run, so a failure exits as it would in the bundle. */
function startModule(bin: string): RolldownPlugin {
  const id = `\0start-${bin}`;
  return {
    name: 'bin-start-module',
    resolveId(source) {
      return source === id ? id : undefined;
    },
    load(moduleId) {
      if (moduleId !== id) return undefined;
      return [
        `import { runBundleWithCodeCache } from ${JSON.stringify(loader)};`,
        `await runBundleWithCodeCache(new URL(${JSON.stringify(`./${bin}.cjs`)}, import.meta.url));`,
      ].join('\n');
    },
  };
}

export interface BinBundleOptions {
  /** The bin's name, as in `bin/<name>.js`. */
  bin: string;
  /** Its source entry, e.g. `src/cli.ts`; it runs the bin and exports the run as its default export. */
  entry: string;
  /** Modules left to Node at run time (node: built-ins always are): native addons and their packages. */
  external?: RegExp[];
  /** Where both files go; `dist` unless given. */
  directory?: string;
}

export function binBundleBuilds({ bin, entry, external = [], directory = 'dist' }: BinBundleOptions): BuildOptions[] {
  return [
    {
      input: { [bin]: entry },
      platform: 'node',
      external: [/^node:/, ...external],
      plugins: [inlinedZod, contentHashLine],
      output: {
        dir: directory,
        format: 'cjs',
        exports: 'named',
        entryFileNames: '[name].cjs',
        chunkFileNames: `${bin}-[hash].cjs`,
        charset: 'ascii',
        comments: { legal: true, annotation: false, jsdoc: false },
      },
    },
    {
      input: { [bin]: `\0start-${bin}` },
      platform: 'node',
      external: [/^node:/],
      plugins: [startModule(bin)],
      output: { dir: directory, format: 'esm', entryFileNames: '[name].js' },
    },
  ];
}
