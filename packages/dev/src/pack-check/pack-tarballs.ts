/**
 * Packs each publishable package as npm would receive it, with its version
 * bumped — so every bin must report the version it was packed with — and
 * lints each tarball (exports at dist, publint, attw).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dependencyBin } from '../dependency-bin.ts';
import type { CheckLog } from './check-log.ts';
import { runCommand } from './run-command.ts';

export interface PackedManifest {
  name: string;
  version: string;
  private?: boolean;
  mcpName?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
}

export interface PublishablePackage {
  directory: string;
  /** package.json as it is in the project (its version not bumped). */
  manifest: PackedManifest;
  /** Its text, put back after packing. */
  text: string;
}

export interface PackedPackage extends PublishablePackage {
  /** The version it was packed with. */
  packedVersion: string;
  tarball: string;
  /** Where the tarball was unpacked (its `package/` directory). */
  extracted: string;
}

/**
 * The packages to pack: those of the workspace's `packages/` and `apps/`
 * that are not private, or the project itself when it has neither.
 */
export function publishablePackages(root: string, directories?: readonly string[]): PublishablePackage[] {
  const grouped = ['packages', 'apps']
    .filter((group) => existsSync(join(root, group)))
    .flatMap((group) =>
      readdirSync(join(root, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')))
        .map((entry) => join(root, group, entry.name)),
    );
  const candidates = directories?.map((directory) => join(root, directory)) ?? (grouped.length > 0 ? grouped : [root]);
  return candidates
    .map((directory) => {
      const text = readFileSync(join(directory, 'package.json'), 'utf8');
      return { directory, text, manifest: JSON.parse(text) as PackedManifest };
    })
    .filter(({ manifest }) => manifest.private !== true);
}

/** The package manager that packs: pnpm where the project has a pnpm lockfile (it rewrites `workspace:` ranges), npm otherwise. */
function packCommand(root: string, destination: string): [string, string[]] {
  return existsSync(join(root, 'pnpm-lock.yaml'))
    ? ['pnpm', ['pack', '--pack-destination', destination]]
    : ['npm', ['pack', '--pack-destination', destination, '--loglevel=error']];
}

export function packTarballs(
  root: string,
  packages: readonly PublishablePackage[],
  work: string,
  log: CheckLog,
): PackedPackage[] {
  const packed: PackedPackage[] = [];
  // The manifests are put back as they were however the packing ends.
  try {
    for (const publishable of packages) {
      const packedVersion = `${publishable.manifest.version.replace(/-.*$/, '')}-packcheck.1`;
      writeFileSync(
        join(publishable.directory, 'package.json'),
        publishable.text.replace(/"version": "[^"]+"/, `"version": "${packedVersion}"`),
      );
    }
    for (const publishable of packages) {
      const { directory, manifest } = publishable;
      const packedVersion = `${manifest.version.replace(/-.*$/, '')}-packcheck.1`;
      console.log(`${manifest.name}@${packedVersion}`);
      const destination = join(work, 'tarballs');
      mkdirSync(destination, { recursive: true });
      const [command, args] = packCommand(root, destination);
      const printed = runCommand(command, args, directory).trim().split('\n').at(-1) as string;
      const tarball = printed.startsWith('/') ? printed : join(destination, printed);
      const extracted = join(work, 'extracted', manifest.name);
      mkdirSync(extracted, { recursive: true });
      runCommand('tar', ['-xzf', tarball, '-C', extracted], root);
      packed.push({ ...publishable, packedVersion, tarball, extracted: join(extracted, 'package') });
      const packedManifest = JSON.parse(
        readFileSync(join(extracted, 'package', 'package.json'), 'utf8'),
      ) as PackedManifest;
      log.check('published exports point at dist, not src', () => {
        if (JSON.stringify(packedManifest.exports).includes('/src/'))
          throw new Error(JSON.stringify(packedManifest.exports));
      });
      log.check('publint --strict', () =>
        runCommand(
          process.execPath,
          [dependencyBin('publint', 'publint'), '--strict', '--pack', 'false'],
          join(extracted, 'package'),
        ),
      );
      log.check('attw (esm-only)', () =>
        runCommand(
          process.execPath,
          [dependencyBin('@arethetypeswrong/cli', 'attw'), tarball, '--profile', 'esm-only', '--format', 'ascii'],
          root,
        ),
      );
    }
  } finally {
    for (const { directory, text } of packages) writeFileSync(join(directory, 'package.json'), text);
  }
  return packed;
}
