/**
 * The SDK v2 fixture server over stdio, as a child process:
 * `node sdk-modern-stdio-server.ts [--modern-only]`. Dual-era by default, as
 * `serveStdio` is; `--modern-only` refuses the legacy handshake.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { buildModernFixtureServer, createModernFixtureState } from './sdk-modern-server.ts';

const state = createModernFixtureState();
serveStdio(() => buildModernFixtureServer(state), {
  legacy: process.argv.includes('--modern-only') ? 'reject' : 'serve',
});
