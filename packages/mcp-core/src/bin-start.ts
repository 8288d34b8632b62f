/**
 * `@toolshed/mcp-core/bin-start`: what a bin's start module runs (the
 * module `binBundleBuilds` writes, see bin-build.ts). Kept apart from the
 * main entry so the start module loads neither zod nor the engine: they are
 * in the bundle it runs.
 */
export { runBundleWithCodeCache } from './cli/run-bundle-with-code-cache.ts';
