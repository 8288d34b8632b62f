/**
 * Builds a server's MCP bundle (.mcpb) from packed tarballs: the server
 * package installed with its production dependencies under `server/`, a
 * manifest.json from its package.json and bin, checked and packed by the
 * official `mcpb` tool.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dependencyBin } from './dependency-bin.ts';
import { bundleLauncherPath, mcpbManifest } from './mcpb-manifest.ts';
import type { PackageManifest } from './package-manifest.ts';
import { loadServerCli, type ServerPackage } from './server-package.ts';

export interface BundleInput {
  /** The project root: where the server's directory and the LICENSE are. */
  root: string;
  server: ServerPackage;
  /** The server's own tarball. */
  tarball: string;
  /** Tarballs of sibling packages it depends on (they are not on the registry yet when it is built). */
  workspaceTarballs?: readonly string[];
  /** An empty directory to build in. */
  staging: string;
  /** Where the .mcpb file goes. */
  output: string;
  /** Named as the author when package.json has none. */
  author?: string;
}

/** Whether an installed tree holds a compiled addon (`*.node`): better-sqlite3, sharp's libvips binding. */
function hasNativeAddons(directory: string): boolean {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).some((path) => path.endsWith('.node'));
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Builds and validates one bundle; returns its manifest.
 *
 * @example
 * await buildMcpbBundle({ root, server, tarball: 'my-server-1.0.0.tgz', staging: '/tmp/stage', output: 'my-server.mcpb' });
 */
export async function buildMcpbBundle(input: BundleInput): Promise<Record<string, unknown>> {
  const { root, server, tarball, workspaceTarballs = [], staging, output } = input;
  const cli = await loadServerCli(root, server);
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
  const nativeAddons = hasNativeAddons(join(serverDirectory, 'node_modules'));
  if (nativeAddons) {
    copyFileSync(new URL('../launcher/start-server.sh', import.meta.url), join(staging, bundleLauncherPath));
    chmodSync(join(staging, bundleLauncherPath), 0o755);
  }
  const manifest = mcpbManifest(server, JSON.parse(installed) as PackageManifest, cli, {
    nativeAddons,
    ...(input.author === undefined ? {} : { author: input.author }),
  });
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const license = [join(root, server.directory, 'LICENSE'), join(root, 'LICENSE')].find((path) => existsSync(path));
  if (license !== undefined) copyFileSync(license, join(staging, 'LICENSE'));
  const mcpb = dependencyBin('@anthropic-ai/mcpb', 'mcpb');
  run(process.execPath, [mcpb, 'validate', join(staging, 'manifest.json')], staging);
  run(process.execPath, [mcpb, 'pack', staging, output], staging);
  return manifest;
}
