import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  type Stats,
  unlinkSync,
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
  createSmallFileCopier,
  type FileBatch,
  type FileBatchResult,
  type SmallFileCopierOptions,
} from './small-file-copier.ts';
import { startTreeCopyThread, type TreeCopyThread } from './tree-copy-thread.ts';
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
  /** Bytes of file content one copy may make, a file or a whole tree. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Called as a tree's files are copied, about every 10 ms. */
  progress?(filesCopied: number, filesInTree: number): void;
  /** Files a tree must have before a second thread copies some of them. Default: 1,000. */
  parallelFiles?: number;
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
// Below this many files a tree is copied by one thread: starting a second one costs about as much as copying a few
// hundred small files.
const defaultParallelFiles = 1000;

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

// A tree's small files go in batches of this many, to this thread or the second one: small enough that the walk
// yields often (cancellation, progress), large enough that handing a batch over costs little beside copying it.
const batchFiles = 32;
// Batches the second thread may hold at once: one at work and one waiting, so it never idles while there is work.
const threadBatches = 2;

function batchFailure(failure: { code: string; message: string }, requested: string): Error {
  if (failure.code === 'budget') return new ToolError(failure.message);
  if (failure.code === 'SWAPPED') return accessDenied(requested, 'had a file swapped while it was copied');
  return Object.assign(new Error(failure.message), { code: failure.code });
}

/**
 * A tree copy: counted first and refused over the caps, then copied through verified descriptors. The walk makes
 * each directory and copies its small files in batches, each batch here or, for a large tree, on a second thread
 * when that one has room; a directory gets its mode once its files and directories are all copied.
 */
class TreeCopy {
  files = 0;
  directories = 0;
  bytes = 0;
  readonly skipped: string[] = [];
  readonly planned = { entries: 0, files: 0, bytes: 0 };
  readonly #guard: Guard;
  readonly #source: GuardedPath;
  readonly #destination: GuardedPath;
  readonly #options: CopyOptions;
  readonly #maxEntries: number;
  readonly #maxDepth: number;
  readonly #maxBytes: number;
  readonly #tick: () => false | Promise<true>;
  readonly #owner = processOwner();
  /** Bytes taken so far (the cap, shared with the second thread), then batches that thread has finished. */
  readonly #shared = new SharedArrayBuffer(16);
  readonly #counters = new BigInt64Array(this.#shared);
  readonly #copierOptions: SmallFileCopierOptions;
  readonly #copyBatch: (batch: FileBatch) => FileBatchResult;
  #thread: TreeCopyThread | undefined;
  #batchesSent = 0;
  #batches = 0;
  /** Entries met by the walk so far, held to the cap while copying. */
  #entries = 0;
  /** The first failure of any branch of the walk: the others stop at their next entry. */
  #failure: { error: unknown } | undefined;

  constructor(guard: Guard, source: GuardedPath, destination: GuardedPath, options: CopyOptions) {
    this.#guard = guard;
    this.#source = source;
    this.#destination = destination;
    this.#options = options;
    this.#maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.#maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#tick = createSliceTimer(options.signal);
    this.#copierOptions = {
      umask: processUmask(),
      budget: this.#shared,
      maxBytes: this.#maxBytes,
      smallBytes: syncCopyBytes,
    };
    this.#copyBatch = createSmallFileCopier(this.#copierOptions);
  }

  /**
   * Starts the second thread for a tree with many files, where the kernel names descriptors (the thread reaches the
   * verified directories through their links); a small tree is copied sooner without it.
   */
  startThread(from: OpenTreeDirectory, to: OpenTreeDirectory): void {
    const threshold = this.#options.parallelFiles ?? defaultParallelFiles;
    if (this.planned.files < threshold) return;
    if (!from.base.startsWith('/proc/self/fd/') || !to.base.startsWith('/proc/self/fd/')) return;
    this.#thread = startTreeCopyThread(this.#copierOptions);
  }

  /** Stops the second thread; once this resolves nothing of this copy is still being written. */
  async stopThread(): Promise<void> {
    await this.#thread?.stop();
    this.#thread = undefined;
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

  /** Counts the tree, and refuses it over the caps before anything is copied. */
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
        // By path, not through the descriptor: twice as fast, and only an estimate — the copy holds the cap on
        // the bytes it really copies.
        const stats = lstatSync(`${directory.path}/${entry.name}`, { throwIfNoEntry: false });
        this.planned.files++;
        this.planned.bytes += stats?.size ?? 0;
        if (this.planned.bytes > this.#maxBytes) throw this.#refuse(`holds more than ${this.#maxBytes} bytes`);
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

  /**
   * Copies the entries of `from` into `to`, which this call made. Its directories and batches are started without
   * waiting for one another, and waited for together at the end, so the walk goes on while the second thread copies.
   */
  async copy(from: OpenTreeDirectory, to: OpenTreeDirectory, relative: string, depth: number): Promise<void> {
    const started: Promise<void>[] = [];
    const start = (work: Promise<void> | undefined) => {
      if (work === undefined) return;
      started.push(
        work.catch((error: unknown) => {
          this.#failure ??= { error };
        }),
      );
    };
    let names: string[] = [];
    try {
      for (const entry of listTreeDirectory(from)) {
        if (this.#failure !== undefined) break;
        // Progress once a slice: a notification for each of thousands of files would cost more than the copies.
        const slice = this.#tick();
        if (slice !== false && (await slice)) this.#options.progress?.(this.files, this.planned.files);
        if (++this.#entries > this.#maxEntries || depth > this.#maxDepth) {
          throw new ToolError(`it grew past the caps (${this.#maxEntries} entries, ${this.#maxDepth} levels)`);
        }
        const below = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory()) {
          start(this.#copyDirectory(from, to, entry.name, below, depth));
        } else if (entry.isFile()) {
          names.push(entry.name);
          if (names.length === batchFiles) {
            start(this.#copyFiles(from, to, names, relative));
            names = [];
          }
        } else {
          this.skipped.push(below);
        }
      }
      if (names.length > 0 && this.#failure === undefined) start(this.#copyFiles(from, to, names, relative));
    } catch (error) {
      this.#failure ??= { error };
    }
    await Promise.all(started);
    if (this.#failure !== undefined) throw this.#failure.error;
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
   * Copies a batch of small files, on the second thread when it has room, else here and now. Answers a promise
   * only for work still under way: the batch on the other thread, or large files through the thread pool.
   */
  #copyFiles(from: OpenTreeDirectory, to: OpenTreeDirectory, names: string[], relative: string) {
    const batch: FileBatch = { id: this.#batches++, from: from.base, to: to.base, names };
    const thread = this.#thread;
    // Read from memory the other thread writes, so a batch it finished counts before its answer is delivered.
    if (thread !== undefined && this.#batchesSent - Number(Atomics.load(this.#counters, 1)) < threadBatches) {
      this.#batchesSent++;
      return thread.copy(batch).then((result) => this.#batchCopied(from, to, result, relative));
    }
    return this.#batchCopied(from, to, this.#copyBatch(batch), relative);
  }

  #batchCopied(from: OpenTreeDirectory, to: OpenTreeDirectory, result: FileBatchResult, relative: string) {
    this.files += result.files;
    this.bytes += result.bytes;
    for (const name of result.skipped) this.skipped.push(relative === '' ? name : `${relative}/${name}`);
    if (result.failure !== undefined) throw batchFailure(result.failure, this.#source.requested);
    if (result.large.length === 0) return undefined;
    return this.#copyLargeFiles(from, to, result.large, relative);
  }

  /** Files over the small-file size, one at a time through the thread pool, so the event loop is not held. */
  async #copyLargeFiles(from: OpenTreeDirectory, to: OpenTreeDirectory, names: readonly string[], relative: string) {
    for (const name of names) {
      const file = openSourceFile(from, name);
      if (file === undefined) {
        this.skipped.push(relative === '' ? name : `${relative}/${name}`);
        continue;
      }
      try {
        const size = BigInt(file.stats.size);
        if (Atomics.add(this.#counters, 0, size) + size > BigInt(Math.min(this.#maxBytes, Number.MAX_SAFE_INTEGER))) {
          throw new ToolError(`it grew past ${this.#maxBytes} bytes`);
        }
        await copyFileContent(file, `${to.base}/${name}`, this.#owner);
        if (!checkSameFile(file, from, name)) {
          unlinkSync(`${to.base}/${name}`);
          throw accessDenied(this.#source.requested, 'had a file swapped while it was copied');
        }
        this.files++;
        this.bytes += file.stats.size;
      } finally {
        closeSync(file.fd);
      }
    }
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
    tree.startThread(sourceTop, destinationTop);
    try {
      await tree.copy(sourceTop, destinationTop, '', 1);
    } finally {
      await tree.stopThread();
    }
    fchmodSync(destinationTop.fd, sourceTop.mode & keptModeBits);
    return { files: tree.files, directories: tree.directories, bytes: tree.bytes, skipped: tree.skipped.sort() };
  } catch (error) {
    const reason = fileSystemToolError(error, source.requested);
    if (!made) throw reason;
    // A tree stopped part way is taken away again: a copy is all there or not there.
    for (const directory of opened.splice(0).reverse()) closeTreeDirectory(directory);
    const removed = await removeEntry(guard, { ...destination, exists: true }, { recursive: true }).then(
      () => true,
      () => false,
    );
    const why = ToolError.isInstance(reason) ? reason.message : String(reason);
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
