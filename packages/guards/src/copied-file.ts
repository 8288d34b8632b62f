import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  futimesSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { errorCode } from './file-system-error.ts';
import { descriptorPath } from './opened-file-path.ts';
import type { OpenTreeDirectory } from './verified-descriptor-tree.ts';

// O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; fstat then refuses it.
const openSource = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
// copy_file_range (or a clone where the file system shares blocks) without a trip through this process.
const copyFlags = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;
// Files up to this size are copied synchronously within a time slice (a tree's through this process's buffer):
// for small files the thread pool's round trip costs more than the copy. Larger ones go through it, so the event
// loop is not held.
export const syncCopyBytes: number = 1024 * 1024;
// Set-user-ID and set-group-ID bits are dropped, as cp drops them: the copy belongs to this process's user.
export const keptModeBits: number = 0o1777;
// O_EXCL: a name that exists now, a link included, is never opened, so nothing is written through one.
const createCopy = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Who this process is, asked once a copy; `undefined` where there are no user ids (Windows). */
export type ProcessOwner = { readonly uid: number; readonly gid: number } | undefined;

export function processOwner(): ProcessOwner {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

export interface OpenedSourceFile {
  readonly fd: number;
  readonly stats: Stats;
  /** A path that opens this very file: the descriptor's link, or its path where the kernel has none. */
  readonly from: string;
}

/** Opens a regular file by name inside a verified directory; `undefined` when the name is no regular file now. */
export function openSourceFile(directory: OpenTreeDirectory, name: string): OpenedSourceFile | undefined {
  let fd: number;
  try {
    fd = openSync(`${directory.base}/${name}`, openSource);
  } catch (error) {
    if (errorCode(error) === 'ELOOP' || errorCode(error) === 'ENXIO') return undefined;
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    return undefined;
  }
  return { fd, stats, from: descriptorPath(fd) ?? `${directory.base}/${name}` };
}

/** Where the kernel cannot name descriptors, the copy came from a path: it must still name the file opened. */
export function checkSameFile(file: OpenedSourceFile, directory: OpenTreeDirectory, name: string): boolean {
  if (file.from.startsWith('/proc/self/fd/')) return true;
  const now = lstatSync(`${directory.base}/${name}`, { throwIfNoEntry: false });
  return now?.isFile() === true && now.dev === file.stats.dev && now.ino === file.stats.ino;
}

/**
 * Copies the opened file's bytes and mode to `to`, a name that must not exist. libuv's copyfile also gives the copy
 * the source's owner where it may (running as root) and its times; the owner is set back to this process's, as
 * cp leaves it, which also clears set-user-ID and set-group-ID bits, dropped here in any case.
 */
export async function copyFileContent(file: OpenedSourceFile, to: string, owner: ProcessOwner): Promise<void> {
  const { chmodSync, lchownSync } = process.getBuiltinModule('node:fs');
  if (file.stats.size <= syncCopyBytes) copyFileSync(file.from, to, copyFlags);
  else await process.getBuiltinModule('node:fs/promises').copyFile(file.from, to, copyFlags);
  if (owner !== undefined && (file.stats.uid !== owner.uid || file.stats.gid !== owner.gid)) {
    lchownSync(to, owner.uid, owner.gid);
  }
  if ((file.stats.mode & 0o6000) !== 0) chmodSync(to, file.stats.mode & keptModeBits);
}

/**
 * The permission bits new files lose to this process's umask, read from the kernel (`/proc/self/status`) rather
 * than with `process.umask()`, which can only read it by setting it. `undefined` where the kernel does not say: a
 * copy then sets each file's mode itself.
 */
export function processUmask(): number | undefined {
  try {
    const line = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'latin1'));
    return line === null ? undefined : Number.parseInt(line[1] as string, 8);
  } catch {
    return undefined;
  }
}

/**
 * Copies a small opened file's bytes, mode and times to `to`, through this process's buffer: open, read, write,
 * set the times, close — five system calls where libuv's copyFile makes ten (it opens the source again through
 * its descriptor's link, tries a clone, and sets the mode and the owner on every copy). Times are kept to the
 * microsecond (Node takes them as floating-point seconds). The guarantees are those of copyFile with
 * COPYFILE_EXCL: the bytes are read from the descriptor the caller opened with O_NOFOLLOW and checked to be a
 * regular file, and the copy is created by name inside the verified destination directory with O_CREAT | O_EXCL
 * | O_NOFOLLOW, so an existing name or a link planted there is refused, never written through. The copy belongs
 * to this process's user by creation.
 */
export function copySmallFile(file: OpenedSourceFile, to: string, buffer: Buffer, umask: number | undefined): void {
  const mode = file.stats.mode & keptModeBits;
  const fd = openSync(to, createCopy, mode & 0o777);
  try {
    let length = 0;
    while (length < file.stats.size) {
      const read = readSync(file.fd, buffer, length, file.stats.size - length, length);
      if (read === 0) break;
      length += read;
    }
    for (let written = 0; written < length; ) written += writeSync(fd, buffer, written, length - written);
    // The umask took bits the source has (or the sticky bit, which open does not set): set the mode itself.
    if (umask === undefined || (mode & (umask | 0o1000)) !== 0) fchmodSync(fd, mode);
    futimesSync(fd, file.stats.atimeMs / 1000, file.stats.mtimeMs / 1000);
  } finally {
    closeSync(fd);
  }
}
