/**
 * This workspace as npm would receive it, for the end-to-end test and the bench: its packages packed, the
 * generator installed from its tarball, projects installed from the store without the registry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const workspace: string = new URL('../../../../', import.meta.url).pathname;

export function run(command: string, args: readonly string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

function pack(directory: string, destination: string): string {
  const printed = run('pnpm', ['pack', '--pack-destination', destination], join(workspace, directory));
  return join(destination, (printed.trim().split('\n').at(-1) as string).split('/').at(-1) as string);
}

/**
 * Installs from the store alone. pnpm resolves version ranges from its metadata cache, which a machine that only
 * ever installed from a lockfile may not have: then, and only then, it asks the registry for metadata (still no
 * package files), and says so.
 */
export function installOffline(directory: string): void {
  try {
    run('pnpm', ['install', '--offline'], directory);
  } catch (error) {
    if (!String((error as { stdout?: string }).stdout).includes('ERR_PNPM_NO_OFFLINE_META')) throw error;
    console.warn(
      `${directory}: pnpm's metadata cache is cold; versions resolved by the registry, files from the store`,
    );
    run('pnpm', ['install', '--prefer-offline'], directory);
  }
}

export interface PackedWorkspace {
  mcpCore: string;
  dev: string;
  /** The generator's bin, installed from its tarball. */
  generator: string;
}

const packedDirectories = ['packages/mcp-core', 'packages/dev', 'packages/create-toolshed-server'];

/**
 * Waits while a pack check in this checkout has the versions bumped to a pre-release (it puts them back once it
 * has packed): a pre-release tarball would not satisfy the generated project's `^` ranges.
 */
function waitForReleaseVersions(): void {
  const bumped = () =>
    packedDirectories.some((directory) =>
      readFileSync(join(workspace, directory, 'package.json'), 'utf8').includes('-packcheck.'),
    );
  for (let waited = 0; bumped(); waited++) {
    if (waited === 120) throw new Error('the package versions stayed bumped by a pack check for 10 minutes');
    spawnSync('sleep', ['5']);
  }
}

/** The packages to pack that have no build yet. */
export function unbuiltPackages(): string[] {
  return packedDirectories.filter((directory) => !existsSync(join(workspace, directory, 'dist')));
}

/** Packs mcp-core, dev and the generator (built first) into `work`, and installs the generator from its tarball. */
export function packWorkspace(work: string): PackedWorkspace {
  const unbuilt = unbuiltPackages();
  if (unbuilt.length > 0) throw new Error(`${unbuilt.join(', ')} not built: pnpm build first`);
  waitForReleaseVersions();
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const runner = join(work, 'runner');
  mkdirSync(runner);
  const generatorTarball = pack('packages/create-toolshed-server', tarballs);
  writeFileSync(
    join(runner, 'package.json'),
    JSON.stringify({ private: true, dependencies: { 'create-toolshed-server': `file:${generatorTarball}` } }),
  );
  installOffline(runner);
  return {
    mcpCore: pack('packages/mcp-core', tarballs),
    dev: pack('packages/dev', tarballs),
    generator: join(runner, 'node_modules/create-toolshed-server/bin/create-toolshed-server.js'),
  };
}

/** Points a generated project at the packed packages, which are not on the registry yet. */
export function useWorkspaceTarballs(project: string, packed: PackedWorkspace): void {
  writeFileSync(
    join(project, 'pnpm-workspace.yaml'),
    `overrides:\n  "@toolshed/mcp-core": "file:${packed.mcpCore}"\n  "@toolshed/dev": "file:${packed.dev}"\n`,
  );
}
