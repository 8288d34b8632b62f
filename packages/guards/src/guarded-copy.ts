import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import { ToolError } from '@toolshed/mcp-core';
import { fileSystemToolError } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import { removeEntry } from './guarded-remove.ts';
import { descriptorPath } from './opened-file-path.ts';
import { grantFor, isWithin } from './path-containment.ts';
import type { GuardedPath, PathGuard } from './path-guard.ts';
import {
  closeTreeDirectory,
  createSliceTimer,
  listTreeDirectory,
  type OpenTreeDirectory,
  openTreeDirectory,
} from './verified-descriptor-tree.ts';

export interface CopyOptions {
  /** Entries a tree may have; a larger one is refused before anything is copied. */
  maxEntries?: number;
  /** Levels below the directory a tree may have. */
  maxDepth?: number;
  /**
   * Bytes of file content one copy may make, a file or a whole tree: a file over it is refused before it is
   * copied; a tree is stopped when it reaches it and what was copied is deleted again.
   */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Called as a tree's files are copied, about every 10 ms. */
  progress?(filesCopied: number, filesInTree: number): void;
}

/** What a copy made. */
export interface CopySummary {
  readonly files: number;
  /** The directories made, the top one included; 0 for a file. */
  readonly directories: number;
  readonly bytes: number;
  /** Links and special files (FIFOs, devices, sockets) of a tree, not copied: their paths below the source. */
  readonly skipped: readonly string[];
}

type Guard = Pick<PathGuard, 'grants' | 'readOnly'>;

// O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; fstat then refuses it.
const openSource = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
// copy_file_range (or a clone where the file system shares blocks) without a trip through this process.
const copyFlags = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;
// Files up to this size are copied synchronously within a time slice (a tree's through this process's buffer):
// for small files the thread pool's round trip costs more than the copy. Larger ones go through it, so the event
// loop is not held.
const syncCopyBytes = 1024 * 1024;
// Set-user-ID and set-group-ID bits are dropped, as cp drops them: the copy belongs to this process's user.
const keptModeBits = 0o1777;
// O_EXCL: a name that exists now, a link included, is never opened, so nothing is written through one.
const createCopy = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function alreadyExists(requested: string): ToolError {
  return new ToolError(`"${requested}" already exists; a copy never replaces anything. Choose a new name.`);
}

/** Who this process is, asked once a copy; `undefined` where there are no user ids (Windows). */
type ProcessOwner = { readonly uid: number; readonly gid: number } | undefined;

function processOwner(): ProcessOwner {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

interface OpenedSourceFile {
  readonly fd: number;
  readonly stats: Stats;
  /** A path that opens this very file: the descriptor's link, or its path where the kernel has none. */
  readonly from: string;
}

/** Opens a regular file by name inside a verified directory; `undefined` when the name is no regular file now. */
function openSourceFile(directory: OpenTreeDirectory, name: string): OpenedSourceFile | undefined {
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
function checkSameFile(file: OpenedSourceFile, directory: OpenTreeDirectory, name: string): boolean {
  if (file.from.startsWith('/proc/self/fd/')) return true;
  const now = lstatSync(`${directory.base}/${name}`, { throwIfNoEntry: false });
  return now?.isFile() === true && now.dev === file.stats.dev && now.ino === file.stats.ino;
}

/**
 * Copies the opened file's bytes and mode to `to`, a name that must not exist. libuv's copyfile also gives the copy
 * the source's owner where it may (running as root) and its times; the owner is set back to this process's, as
 * cp leaves it, which also clears set-user-ID and set-group-ID bits, dropped here in any case.
 */
async function copyFileContent(file: OpenedSourceFile, to: string, owner: ProcessOwner): Promise<void> {
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
function processUmask(): number | undefined {
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
function copySmallFile(file: OpenedSourceFile, to: string, buffer: Buffer, umask: number | undefined): void {
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

/** A tree copy: counted first and refused over the entry and depth caps, then copied depth first through verified descriptors. */
class TreeCopy {
  files = 0;
  directories = 0;
  bytes = 0;
  readonly skipped: string[] = [];
  readonly planned = { entries: 0, files: 0 };
  readonly #guard: Guard;
  readonly #source: GuardedPath;
  readonly #destination: GuardedPath;
  readonly #options: CopyOptions;
  readonly #maxEntries: number;
  readonly #maxDepth: number;
  readonly #maxBytes: number;
  readonly #tick: () => false | Promise<true>;
  readonly #owner = processOwner();
  readonly #umask = processUmask();
  /** The bytes of the small file being copied; grown to the largest met. */
  #buffer = Buffer.allocUnsafe(64 * 1024);

  constructor(guard: Guard, source: GuardedPath, destination: GuardedPath, options: CopyOptions) {
    this.#guard = guard;
    this.#source = source;
    this.#destination = destination;
    this.#options = options;
    this.#maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.#maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#tick = createSliceTimer(options.signal);
  }

  /** A directory of the source tree, checked to be inside the tree it was found in. */
  openSource(parent: OpenTreeDirectory | undefined, name: string, path: string): OpenTreeDirectory {
    const directory = openTreeDirectory(parent, name, path);
    if (
      !isWithin(directory.actual, this.#source.path) ||
      grantFor(directory.actual, this.#guard.grants) === undefined
    ) {
      closeTreeDirectory(directory);
      throw accessDenied(this.#source.requested, 'had a directory swapped for a link leading outside');
    }
    return directory;
  }

  /** A directory of the copy, made by this call, checked to be inside the copy and writable. */
  openDestination(parent: OpenTreeDirectory, name: string, path: string): OpenTreeDirectory {
    const directory = openTreeDirectory(parent, name, path);
    const grant = grantFor(directory.actual, this.#guard.grants);
    if (grant === undefined || !isWithin(directory.actual, this.#destination.path)) {
      closeTreeDirectory(directory);
      throw accessDenied(this.#destination.requested, 'had a directory swapped for a link leading outside');
    }
    try {
      checkWritable(this.#guard.readOnly, grant, this.#destination.requested);
    } catch (error) {
      closeTreeDirectory(directory);
      throw error;
    }
    return directory;
  }

  #refuse(what: string): ToolError {
    return new ToolError(`"${this.#source.requested}" ${what}; nothing was copied.`);
  }

  /**
   * Counts the tree, and refuses it over the entry and depth caps before anything is copied. Its bytes are held
   * to their cap while it is copied: sizing each file here would cost a system call a file, about a twentieth of a
   * tree copy's time, and a tree found over the cap is deleted again, so either way nothing of it is left.
   */
  async measure(directory: OpenTreeDirectory, depth: number): Promise<void> {
    const entries = listTreeDirectory(directory);
    if (entries.length > 0 && depth > this.#maxDepth) {
      throw this.#refuse(`is more than ${this.#maxDepth} levels deep`);
    }
    this.planned.entries += entries.length;
    if (this.planned.entries > this.#maxEntries) throw this.#refuse(`holds more than ${this.#maxEntries} entries`);
    for (const entry of entries) {
      const slice = this.#tick();
      if (slice !== false) await slice;
      if (entry.isFile()) {
        this.planned.files++;
      } else if (entry.isDirectory()) {
        const child = this.openSource(directory, entry.name, `${directory.path}/${entry.name}`);
        try {
          await this.measure(child, depth + 1);
        } finally {
          closeTreeDirectory(child);
        }
      }
    }
  }

  /** Copies the entries of `from` into `to`, which this call made. */
  async copy(from: OpenTreeDirectory, to: OpenTreeDirectory, relative: string, depth: number): Promise<void> {
    for (const entry of listTreeDirectory(from)) {
      // Progress once a slice: a notification for each of thousands of files would cost more than the copies.
      const slice = this.#tick();
      if (slice !== false && (await slice)) this.#options.progress?.(this.files, this.planned.files);
      const below = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (this.files + this.directories + this.skipped.length >= this.#maxEntries || depth > this.#maxDepth) {
        throw new ToolError(`it grew past the caps (${this.#maxEntries} entries, ${this.#maxDepth} levels)`);
      }
      if (entry.isDirectory()) {
        await this.#copyDirectory(from, to, entry.name, below, depth);
      } else if (entry.isFile()) {
        const large = this.#copyFile(from, to, entry.name, below);
        if (large !== undefined) await large;
      } else {
        this.skipped.push(below);
      }
    }
  }

  async #copyDirectory(
    from: OpenTreeDirectory,
    to: OpenTreeDirectory,
    name: string,
    below: string,
    depth: number,
  ): Promise<void> {
    let sourceChild: OpenTreeDirectory;
    try {
      sourceChild = this.openSource(from, name, `${from.path}/${name}`);
    } catch (error) {
      // No longer a directory: a link now is skipped, as any link; gone is gone.
      if (errorCode(error) === 'ELOOP' || errorCode(error) === 'ENOTDIR') this.skipped.push(below);
      else if (errorCode(error) !== 'ENOENT') throw error;
      return;
    }
    try {
      // Closed to others while it is filled; given the source's mode once full (a read-only one could not be).
      mkdirSync(`${to.base}/${name}`, 0o700);
      const destinationChild = this.openDestination(to, name, `${to.path}/${name}`);
      this.directories++;
      try {
        await this.copy(sourceChild, destinationChild, below, depth + 1);
        fchmodSync(destinationChild.fd, sourceChild.mode & keptModeBits);
      } finally {
        closeTreeDirectory(destinationChild);
      }
    } finally {
      closeTreeDirectory(sourceChild);
    }
  }

  /**
   * Copies one file; synchronously for a small one (most of a tree's files), so the walk does not wait on a
   * promise a file. Answers a promise only for a file copied through the thread pool.
   */
  #copyFile(from: OpenTreeDirectory, to: OpenTreeDirectory, name: string, below: string): Promise<void> | undefined {
    const file = openSourceFile(from, name);
    if (file === undefined) {
      this.skipped.push(below);
      return undefined;
    }
    let closeLater = false;
    try {
      if (this.bytes + file.stats.size > this.#maxBytes) {
        throw new ToolError(`it holds more than ${this.#maxBytes} bytes`);
      }
      if (file.stats.size > syncCopyBytes) {
        closeLater = true;
        return copyFileContent(file, `${to.base}/${name}`, this.#owner)
          .then(() => this.#copied(file, from, to, name))
          .finally(() => closeSync(file.fd));
      }
      if (this.#buffer.length < file.stats.size) this.#buffer = Buffer.allocUnsafe(syncCopyBytes);
      copySmallFile(file, `${to.base}/${name}`, this.#buffer, this.#umask);
      this.#copied(file, from, to, name);
      return undefined;
    } finally {
      if (!closeLater) closeSync(file.fd);
    }
  }

  /** Counts a file copied, once its source is known to be the file opened. */
  #copied(file: OpenedSourceFile, from: OpenTreeDirectory, to: OpenTreeDirectory, name: string): void {
    if (!checkSameFile(file, from, name)) {
      unlinkSync(`${to.base}/${name}`);
      throw accessDenied(this.#source.requested, 'had a file swapped while it was copied');
    }
    this.files++;
    this.bytes += file.stats.size;
  }
}

/** A single file: copied to a hidden name beside the destination, then linked into place, so it appears whole. */
async function copySingleFile(
  guard: Guard,
  file: OpenedSourceFile,
  sourceDirectory: OpenTreeDirectory,
  sourceName: string,
  destinationDirectory: OpenTreeDirectory,
  destination: GuardedPath,
  maxBytes: number,
): Promise<CopySummary> {
  const { link, lstat, rename, unlink } = process.getBuiltinModule('node:fs/promises');
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  if (file.stats.size > maxBytes) {
    throw new ToolError(`The file is ${file.stats.size} bytes; a copy may make at most ${maxBytes}.`);
  }
  const name = basename(destination.path);
  const temporary = `${destinationDirectory.base}/.${name}.${randomBytes(6).toString('hex')}.tmp`;
  const to = `${destinationDirectory.base}/${name}`;
  try {
    await copyFileContent(file, temporary, processOwner());
    if (!checkSameFile(file, sourceDirectory, sourceName)) {
      throw accessDenied(destination.requested, 'was to be copied from a file swapped while it was copied');
    }
    checkWritable(guard.readOnly, destination.grant, destination.requested);
    // link() refuses an existing name atomically; file systems without hard links check, then rename.
    const linked = await link(temporary, to).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw alreadyExists(destination.requested);
        if (error.code === 'EPERM' || error.code === 'ENOTSUP' || error.code === 'EMLINK') return false;
        throw error;
      },
    );
    if (!linked) {
      if ((await lstat(to).catch(() => undefined)) !== undefined) throw alreadyExists(destination.requested);
      await rename(temporary, to);
    }
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return { files: 1, directories: 0, bytes: file.stats.size, skipped: [] };
}

/** See PathGuard.copy. */
export async function copyEntry(
  guard: Guard,
  source: GuardedPath,
  destination: GuardedPath,
  options: CopyOptions,
): Promise<CopySummary> {
  checkWritable(guard.readOnly, destination.grant, destination.requested);
  if (!source.exists) throw new ToolError(`"${source.requested}" does not exist.`);
  if (destination.exists) throw alreadyExists(destination.requested);
  if (isWithin(destination.path, source.path)) {
    throw new ToolError(
      `"${destination.requested}" is inside "${source.requested}": a directory cannot be copied into itself.`,
    );
  }
  const opened: OpenTreeDirectory[] = [];
  let tree: TreeCopy | undefined;
  let made = false;
  try {
    const sourceParent = openTreeDirectory(undefined, '', dirname(source.path));
    opened.push(sourceParent);
    if (grantFor(sourceParent.actual, guard.grants) === undefined) {
      throw accessDenied(source.requested, 'was swapped for a link leading outside');
    }
    const destinationParent = openTreeDirectory(undefined, '', dirname(destination.path));
    opened.push(destinationParent);
    const destinationGrant = grantFor(destinationParent.actual, guard.grants);
    if (destinationGrant === undefined)
      throw accessDenied(destination.requested, 'was swapped for a link leading outside');
    checkWritable(guard.readOnly, destinationGrant, destination.requested);
    const sourceName = basename(source.path);
    const stats = lstatSync(`${sourceParent.base}/${sourceName}`);
    if (stats.isSymbolicLink()) {
      throw accessDenied(source.requested, 'is a symbolic link; copy what it points to by its own path');
    }
    if (!stats.isDirectory()) {
      const file = openSourceFile(sourceParent, sourceName);
      if (file === undefined) {
        throw new ToolError(`"${source.requested}" is not a regular file or a directory; it is not copied.`);
      }
      try {
        const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
        return await copySingleFile(guard, file, sourceParent, sourceName, destinationParent, destination, maxBytes);
      } finally {
        closeSync(file.fd);
      }
    }
    tree = new TreeCopy(guard, source, destination, options);
    const sourceTop = tree.openSource(sourceParent, sourceName, source.path);
    opened.push(sourceTop);
    await tree.measure(sourceTop, 1);
    const destinationName = basename(destination.path);
    try {
      mkdirSync(`${destinationParent.base}/${destinationName}`, 0o700);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') throw alreadyExists(destination.requested);
      throw error;
    }
    made = true;
    const destinationTop = tree.openDestination(destinationParent, destinationName, destination.path);
    opened.push(destinationTop);
    tree.directories++;
    await tree.copy(sourceTop, destinationTop, '', 1);
    fchmodSync(destinationTop.fd, sourceTop.mode & keptModeBits);
    return { files: tree.files, directories: tree.directories, bytes: tree.bytes, skipped: tree.skipped };
  } catch (error) {
    const reason = fileSystemToolError(error, source.requested);
    if (!made) throw reason;
    // A tree stopped part way is taken away again: a copy is all there or not there.
    for (const directory of opened.splice(0).reverse()) closeTreeDirectory(directory);
    const removed = await removeEntry(guard, { ...destination, exists: true }, { recursive: true }).then(
      () => true,
      () => false,
    );
    // File system messages end with a full stop of their own; the sentence gets one, not two.
    const why = (ToolError.isInstance(reason) ? reason.message : String(reason)).replace(/\.$/, '');
    throw new ToolError(
      `Copying "${source.requested}" stopped after ${tree?.files ?? 0} files: ${why}. ` +
        (removed
          ? 'What was copied has been deleted again.'
          : `What was copied is left at "${destination.requested}"; delete it.`),
    );
  } finally {
    for (const directory of opened.reverse()) closeTreeDirectory(directory);
  }
}
