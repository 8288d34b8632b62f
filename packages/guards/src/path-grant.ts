import { isAbsolute, resolve } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';

/** What a grant allows: reading only, or reading and writing. */
export type PathAccess = 'read' | 'write';

/** One directory the operator allowed, and how. */
export interface PathGrant {
  /** The directory's real path (symbolic links resolved). */
  readonly path: string;
  readonly access: PathAccess;
}

/**
 * Reads the operator's `DIR`, `DIR:ro` or `DIR:rw` (default read-write, the
 * reference filesystem server's behaviour), relative to `cwd`.
 */
export function parsePathGrant(spec: string, cwd: string = process.cwd()): { path: string; access: PathAccess } {
  const match = /^(.*):(ro|rw)$/.exec(spec);
  const directory = match?.[1] ?? spec;
  if (directory === '' || directory.includes('\0')) {
    throw new LocalError('config_invalid', `"${spec}" is not a directory path`);
  }
  return {
    path: isAbsolute(directory) ? resolve(directory) : resolve(cwd, directory),
    access: match?.[2] === 'ro' ? 'read' : 'write',
  };
}
