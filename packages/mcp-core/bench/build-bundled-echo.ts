/**
 * Builds the echo server the way a Toolshed bin ships: one file with its
 * JavaScript dependencies (zod, the engine) inlined, so Node loads one module
 * instead of some 160 at start-up, run with a code cache of its start-up.
 */
import { build } from 'rolldown';
import { binBundleBuilds } from '../src/bin-build.ts';

export async function buildBundledEcho(): Promise<void> {
  const builds = binBundleBuilds({
    bin: 'toolshed-echo',
    entry: new URL('./servers/toolshed-echo-server.mjs', import.meta.url).pathname,
    directory: new URL('./.build', import.meta.url).pathname,
  });
  for (const options of builds) await build({ ...options, logLevel: 'silent' });
}
