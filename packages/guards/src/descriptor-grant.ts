import { fstatSync, statSync } from 'node:fs';
import { openedFilePath } from './opened-file-path.ts';
import { grantFor } from './path-containment.ts';
import type { PathGrant } from './path-grant.ts';

/**
 * Where the file an open descriptor refers to is: the kernel's word
 * (`/proc/self/fd`), whatever happened to the path since the open. Where the
 * kernel cannot say, `expectedPath` when it names the opened inode now, else
 * `undefined`: the descriptor cannot be placed, and callers refuse it.
 */
export function descriptorRealPath(fd: number, expectedPath: string): string | undefined {
  const actual = openedFilePath(fd);
  if (actual !== undefined) return actual;
  const opened = fstatSync(fd);
  const named = statSync(expectedPath, { throwIfNoEntry: false });
  return named !== undefined && named.dev === opened.dev && named.ino === opened.ino ? expectedPath : undefined;
}

/** The most specific grant holding what an open descriptor refers to; `undefined` when none does. */
export function descriptorGrant(fd: number, expectedPath: string, grants: readonly PathGrant[]): PathGrant | undefined {
  const actual = descriptorRealPath(fd, expectedPath);
  return actual === undefined ? undefined : grantFor(actual, grants);
}
