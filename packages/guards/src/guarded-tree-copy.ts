import { closeSync, fchmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { ToolError } from '@toolshed/mcp-core';
import {
  checkSameFile,
  copyFileContent,
  copySmallFile,
  keptModeBits,
  type OpenedSourceFile,
  openSourceFile,
  processOwner,
  processUmask,
  syncCopyBytes,
} from './copied-file.ts';
import { errorCode } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import type { CopyOptions } from './guarded-copy.ts';
import { grantFor, isWithin } from './path-containment.ts';
import type { GuardAccess, GuardedPath } from './path-guard.ts';
import {
  closeTreeDirectory,
  createSliceTimer,
  listTreeDirectory,
  type OpenTreeDirectory,
  openTreeDirectory,
} from './verified-descriptor-tree.ts';

/** A tree copy: counted first and refused over the entry and depth caps, then copied depth first through verified descriptors. */
export class TreeCopy {
  files = 0;
  directories = 0;
  bytes = 0;
  readonly skipped: string[] = [];
  readonly planned = { entries: 0, files: 0 };
  readonly #guard: GuardAccess;
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

  constructor(guard: GuardAccess, source: GuardedPath, destination: GuardedPath, options: CopyOptions) {
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
