/**
 * Builds a server's MCP bundle (.mcpb) from packed tarballs: the server
 * package installed with its production dependencies under `server/`, a
 * manifest.json from its package.json and bin, checked and packed by the
 * official `mcpb` tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpbManifest, type PackageManifest } from './mcpb-manifest.ts';
import { type ServerPackage, serverCli } from './server-packages.ts';

const root = new URL('..', import.meta.url).pathname;
const mcpbCli = join(root, 'node_modules/.bin/mcpb');

export interface BundleInput {
  server: ServerPackage;
  /** The server's own tarball. */
  tarball: string;
  /** Tarballs of the workspace packages it depends on (they are not on the registry yet when it is built). */
  workspaceTarballs: readonly string[];
  /** An empty directory to build in. */
  staging: string;
  /** Where the .mcpb file goes. */
  output: string;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Builds and validates one bundle; returns its manifest. */
export async function buildMcpbBundle(input: BundleInput): Promise<Record<string, unknown>> {
  const { server, tarball, workspaceTarballs, staging, output } = input;
  const cli = await serverCli(server);
  if (cli === undefined) throw new Error(`${server.directory} has no bin options to bundle`);
  const serverDirectory = join(staging, 'server');
  mkdirSync(serverDirectory, { recursive: true });
  writeFileSync(join(serverDirectory, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  run(
    'npm',
    [
      'install',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--prefer-offline',
      '--loglevel=error',
      ...workspaceTarballs,
      tarball,
    ],
    serverDirectory,
  );
  const installed = run('tar', ['-xOzf', tarball, 'package/package.json'], root);
  const manifest = mcpbManifest(server, JSON.parse(installed) as PackageManifest, cli);
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const license = join(root, 'LICENSE');
  writeFileSync(join(staging, 'LICENSE'), readFileSync(license));
  run(mcpbCli, ['validate', join(staging, 'manifest.json')], staging);
  run(mcpbCli, ['pack', staging, output], staging);
  return manifest;
}
