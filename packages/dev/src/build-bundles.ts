/**
 * Builds each server's MCP bundle from the project as it is (built first):
 * each package packed as npm would receive it, then bundled.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMcpbBundle } from './mcpb-bundle.ts';
import { readPackageManifest } from './package-manifest.ts';
import type { ServerPackage } from './server-package.ts';

export interface BuildBundlesOptions {
  root: string;
  servers: readonly ServerPackage[];
  /** Sibling packages the servers depend on, packed once and installed from their tarballs. */
  workspaceDirectories?: readonly string[];
  /** Tarballs of dependencies not on the registry yet, installed into each bundle. */
  dependencyTarballs?: readonly string[];
  /** Where the .mcpb files go. */
  output: string;
  author?: string;
}

function pack(root: string, directory: string, destination: string): string {
  const [command, args] = existsSync(join(root, 'pnpm-lock.yaml'))
    ? ['pnpm', ['pack', '--pack-destination', destination]]
    : ['npm', ['pack', '--pack-destination', destination, '--loglevel=error']];
  const printed = execFileSync(command, args, { cwd: join(root, directory), encoding: 'utf8' });
  return join(destination, (printed.trim().split('\n').at(-1) as string).split('/').at(-1) as string);
}

/**
 * Builds the bundles; returns their paths.
 *
 * @example
 * await buildBundles({ root: process.cwd(), servers, output: 'bundles' });
 */
export async function buildBundles(options: BuildBundlesOptions): Promise<string[]> {
  const { root, servers, workspaceDirectories = [], output } = options;
  const work = mkdtempSync(join(tmpdir(), 'toolshed-bundles-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(output, { recursive: true });
  mkdirSync(tarballs, { recursive: true });
  const built: string[] = [];
  try {
    const shared = [
      ...(options.dependencyTarballs ?? []),
      ...workspaceDirectories.map((directory) => pack(root, directory, tarballs)),
    ];
    for (const server of servers.filter((candidate) => candidate.cli !== undefined)) {
      const { name } = readPackageManifest(join(root, server.directory));
      const bundle = join(output, `${name.replace(/^@[^/]+\//, '')}.mcpb`);
      await buildMcpbBundle({
        root,
        server,
        tarball: pack(root, server.directory, tarballs),
        workspaceTarballs: shared,
        staging: join(work, 'staging', name),
        output: bundle,
        ...(options.author === undefined ? {} : { author: options.author }),
      });
      console.log(`${bundle} built`);
      built.push(bundle);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return built;
}
