import { sep } from 'node:path';
import type { PathGrant } from './path-grant.ts';

/**
 * Whether `path` is `directory` or below it, separator-aware: `/srv/data`
 * does not contain `/srv/data_evil`. Both must be absolute and normalised.
 */
export function isWithin(path: string, directory: string): boolean {
  if (path === directory) return true;
  const prefix = directory.endsWith(sep) ? directory : directory + sep;
  return path.startsWith(prefix);
}

/** The most specific grant holding `path`: a read-only subdirectory of a writable one stays read-only. */
export function grantFor(path: string, grants: readonly PathGrant[]): PathGrant | undefined {
  let best: PathGrant | undefined;
  for (const grant of grants) {
    if (isWithin(path, grant.path) && (best === undefined || grant.path.length > best.path.length)) best = grant;
  }
  return best;
}
