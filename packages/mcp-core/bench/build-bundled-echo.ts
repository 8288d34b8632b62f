/**
 * Builds the echo server the way a Toolshed bin ships: one file with its
 * JavaScript dependencies (zod, the engine) inlined, so Node loads one module
 * instead of some 160 at start-up.
 */
import { build } from 'rolldown';

export const bundledEchoPath: string = new URL('./.build/toolshed-echo-bundle.mjs', import.meta.url).pathname;

export async function buildBundledEcho(): Promise<void> {
  await build({
    input: new URL('./servers/toolshed-echo-server.mjs', import.meta.url).pathname,
    external: [/^node:/],
    platform: 'node',
    logLevel: 'silent',
    output: { file: bundledEchoPath, format: 'esm' },
  });
}
