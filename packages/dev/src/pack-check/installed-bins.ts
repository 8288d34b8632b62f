import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PackedManifest, PackedPackage } from './pack-tarballs.ts';

export interface InstalledBin {
  bin: string;
  path: string;
  version: string;
  packageName: string;
  /** Whether it is an MCP server (its package has an `mcpName`) rather than a tool. */
  server: boolean;
}

/** Every bin of the packed packages, as installed in `directory`. */
export function installedBins(packages: readonly PackedPackage[], directory: string): InstalledBin[] {
  return packages.flatMap(({ manifest }) => {
    const installed = JSON.parse(
      readFileSync(join(directory, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ) as PackedManifest;
    return Object.entries(installed.bin ?? {}).map(([bin, path]) => ({
      bin,
      path: join(directory, 'node_modules', manifest.name, path),
      version: installed.version,
      packageName: manifest.name,
      server: installed.mcpName !== undefined,
    }));
  });
}
