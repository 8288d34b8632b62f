import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a server's package.json that registries and bundles read. */
export interface PackageManifest {
  name: string;
  version: string;
  description: string;
  license: string;
  homepage: string;
  mcpName?: string;
  keywords?: string[];
  author?: string | { name: string; url?: string };
  repository: { url: string; directory?: string };
  bugs: { url: string };
  bin: Record<string, string>;
  engines: { node: string };
}

/** A package.json, read from a directory. */
export function readPackageManifest(directory: string): PackageManifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest;
}

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`. */
export function repositoryWebUrl(manifest: PackageManifest): string {
  return manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** The lowest Node a package's engines allow, when written `>=X.Y.Z`. */
export function nodeFloor(manifest: Pick<PackageManifest, 'engines'>): string | undefined {
  return /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines?.node ?? '')?.[1];
}
