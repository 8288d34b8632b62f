import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { ToolError } from '@toolshed/mcp-core';
import { descriptorPath, openedFilePath } from './opened-file-path.ts';
import { isWithin } from './path-containment.ts';

/** What reading one file of a verified directory gave. */
export type DirectoryFileRead =
  | { readonly kind: 'text'; readonly bytes: Buffer }
  | { readonly kind: 'too-large'; readonly size: number }
  /** A link, a FIFO, a device, a directory: anything but a regular file is never read. */
  | { readonly kind: 'not-a-file' };

/**
 * A directory opened once and verified inside a root, whose files are then
 * opened by name through its descriptor. Many files of one directory cost one
 * verification instead of one each, and keep the guarantee of a verified
 * open: the name is looked up inside the directory that was verified (the
 * kernel's descriptor link, as openat), never through a path that could have
 * been swapped since, and a link at the name is refused (O_NOFOLLOW).
 */
export interface VerifiedDirectory {
  /**
   * Reads a regular file named `name` (no separator) whole, unless it has more
   * than `maxBytes`. Synchronous: for many small files the thread pool's round
   * trips cost more than the reads. The bytes are a view of a buffer that the
   * next read reuses: decode or copy them first. Throws the system error when
   * the name cannot be opened (vanished, no permission).
   */
  readFile(name: string, maxBytes: number): DirectoryFileRead;
  /**
   * Closes the directory after checking once more where it is: a directory
   * moved outside while its files were read throws, so what was read from it
   * must not be used before `close` returns.
   */
  close(): void;
}

function swapped(): ToolError {
  return new ToolError('A directory was swapped for a link leading outside while it was being read.');
}

const openDirectory = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// O_NONBLOCK: a FIFO swapped in opens at once instead of waiting for a writer; fstat then refuses it.
const openForReading = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens `path` as a directory without following a link at its name and
 * verifies, by the kernel's word on the open descriptor, that it lies inside
 * `root`. `undefined` where the kernel cannot name descriptors (no
 * `/proc/self/fd`): callers then open each file through the path guard.
 * Throws a ToolError when the directory was swapped for a way out.
 *
 * @example
 * const directory = openVerifiedDirectory('/srv/docs/notes', '/srv/docs');
 * try { const read = directory?.readFile('todo.md', 1 << 20); } finally { directory?.close(); }
 */
export function openVerifiedDirectory(path: string, root: string): VerifiedDirectory | undefined {
  const fd = openSync(path, openDirectory);
  const opened = openedFilePath(fd);
  const base = opened === undefined ? undefined : descriptorPath(fd);
  if (opened === undefined || base === undefined) {
    closeSync(fd);
    return undefined;
  }
  if (!isWithin(opened, root)) {
    closeSync(fd);
    throw swapped();
  }
  // Made on the first read and grown as needed; a directory of small files needs one small buffer.
  let buffer = Buffer.allocUnsafe(0);
  return {
    readFile(name, maxBytes) {
      if (name.includes('/') || name === '..' || name === '.') return { kind: 'not-a-file' };
      const file = openSync(`${base}/${name}`, openForReading);
      try {
        const stats = fstatSync(file);
        if (!stats.isFile()) return { kind: 'not-a-file' };
        if (stats.size > maxBytes) return { kind: 'too-large', size: stats.size };
        if (buffer.length < stats.size) buffer = Buffer.allocUnsafe(Math.max(stats.size, 16 * 1024));
        let length = 0;
        while (length < stats.size) {
          const read = readSync(file, buffer, length, stats.size - length, length);
          if (read === 0) break;
          length += read;
        }
        return { kind: 'text', bytes: buffer.subarray(0, length) };
      } finally {
        closeSync(file);
      }
    },
    close() {
      const still = openedFilePath(fd);
      closeSync(fd);
      if (still === undefined || !isWithin(still, root)) throw swapped();
    },
  };
}
