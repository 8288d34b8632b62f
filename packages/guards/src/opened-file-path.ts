import { readlinkSync } from 'node:fs';

let procFdWorks: boolean | undefined;

/**
 * The path of the file an open descriptor refers to, from the kernel
 * (`/proc/self/fd`): what was really opened, whatever happened to the path
 * between the check and the open. `undefined` where the kernel cannot say
 * (not Linux), and callers fall back to comparing inode numbers.
 */
export function openedFilePath(fd: number): string | undefined {
  if (procFdWorks === false) return undefined;
  try {
    const path = readlinkSync(`/proc/self/fd/${fd}`);
    procFdWorks = true;
    // A file unlinked after opening reads as "/x (deleted)"; it is still the
    // file that was opened, at the place it was.
    return path.endsWith(' (deleted)') ? path.slice(0, -' (deleted)'.length) : path;
  } catch {
    procFdWorks ??= false;
    return undefined;
  }
}

/** A path that reaches an open directory descriptor, to list it or open names inside it (openat). */
export function descriptorPath(fd: number): string | undefined {
  return procFdWorks === true || openedFilePath(fd) !== undefined ? `/proc/self/fd/${fd}` : undefined;
}
