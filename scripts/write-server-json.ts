/**
 * Writes each server package's server.json — its entry in the MCP Registry —
 * from its package.json (name, version, npm identifier) and its bin's options
 * (the environment variables a client may set), by `@toolshed/dev`. `--check`
 * writes nothing and fails when a file is out of date; the pack check runs it
 * and validates the files against the registry's schema.
 */
import { writeServerJsonFiles } from '../packages/dev/src/index.ts';
import { serverPackages, workspaceRoot } from './server-packages.ts';

const stale = await writeServerJsonFiles({
  root: workspaceRoot,
  servers: serverPackages,
  check: process.argv.includes('--check'),
  command: 'node scripts/write-server-json.ts',
});
process.exitCode = stale > 0 ? 1 : 0;
