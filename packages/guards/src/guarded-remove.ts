import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ToolError } from '@toolshed/mcp-core';
import { errorCode, fileSystemToolError } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import { grantFor, isWithin } from './path-containment.ts';
import type { GuardAccess, GuardedPath } from './path-guard.ts';
import {
  closeTreeDirectory,
  createSliceTimer,
  listTreeDirectory,
  type OpenTreeDirectory,
  openTreeDirectory,
} from './verified-descriptor-tree.ts';

export interface RemoveOptions {
  /** Delete a directory and everything in it. Without it a directory is refused, empty or not. */
  recursive?: boolean;
  /** Entries a recursive delete may remove at most; a larger tree is refused before anything is deleted. */
  maxEntries?: number;
  /** Levels below the directory a recursive delete may descend at most. */
  maxDepth?: number;
  signal?: AbortSignal;
}

/** What a delete removed. */
export interface RemoveSummary {
  /** Files, links and other entries that are not directories. */
  readonly files: number;
  readonly directories: number;
}

/** A recursive delete: counted first, then removed depth first through verified descriptors. */
class TreeRemoval {
  files = 0;
  directories = 0;
  readonly #guard: GuardAccess;
  readonly #target: GuardedPath;
  readonly #maxEntries: number;
  readonly #maxDepth: number;
  readonly #dev: number;
  readonly #tick: () => false | Promise<true>;

  constructor(guard: GuardAccess, target: GuardedPath, options: RemoveOptions, dev: number) {
    this.#guard = guard;
    this.#target = target;
    this.#maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.#dev = dev;
    this.#tick = createSliceTimer(options.signal);
  }

  /** Opens a directory of the tree and checks it is still where it was: inside the tree, writable, same device. */
  open(parent: OpenTreeDirectory, name: string): OpenTreeDirectory {
    const directory = openTreeDirectory(parent, name, `${parent.path}/${name}`);
    try {
      const grant = grantFor(directory.actual, this.#guard.grants);
      if (grant === undefined || !isWithin(directory.actual, this.#target.path)) {
        throw accessDenied(this.#target.requested, 'had a directory swapped for a link leading outside');
      }
      checkWritable(this.#guard.readOnly, grant, this.#target.requested);
      if (directory.dev !== this.#dev) {
        throw new ToolError(
          `"${this.#target.requested}" has another file system mounted inside it (at ${directory.actual.slice(this.#target.path.length + 1)}); ` +
            'a delete never crosses into one.',
        );
      }
      return directory;
    } catch (error) {
      closeTreeDirectory(directory);
      throw error;
    }
  }

  /** Counts the tree and refuses it over the caps, before anything is deleted. */
  async measure(directory: OpenTreeDirectory, depth: number, counted = { entries: 0 }): Promise<void> {
    const entries = listTreeDirectory(directory);
    if (entries.length > 0 && depth > this.#maxDepth) {
      throw new ToolError(
        `"${this.#target.requested}" is more than ${this.#maxDepth} levels deep; nothing was deleted. Delete its ` +
          'deepest directories first.',
      );
    }
    counted.entries += entries.length;
    if (counted.entries > this.#maxEntries) {
      throw new ToolError(
        `"${this.#target.requested}" holds more than ${this.#maxEntries} entries; nothing was deleted. Delete its ` +
          'subdirectories one at a time.',
      );
    }
    for (const entry of entries) {
      await this.#tick();
      if (!entry.isDirectory()) continue;
      const child = this.open(directory, entry.name);
      try {
        await this.measure(child, depth + 1, counted);
      } finally {
        closeTreeDirectory(child);
      }
    }
  }

  /** Deletes everything inside `directory`, then the directory named `name` in `parent`. */
  async remove(parent: OpenTreeDirectory, name: string, depth: number): Promise<void> {
    let directory: OpenTreeDirectory;
    try {
      directory = this.open(parent, name);
    } catch (error) {
      // No longer a directory (a link or a file now): the name itself goes, never what a link points to.
      if (errorCode(error) === 'ELOOP' || errorCode(error) === 'ENOTDIR') return this.#unlink(parent, name, depth);
      if (errorCode(error) === 'ENOENT') return;
      throw error;
    }
    try {
      for (const entry of listTreeDirectory(directory)) {
        await this.#tick();
        if (this.files + this.directories >= this.#maxEntries || depth > this.#maxDepth) {
          throw new ToolError(`it grew past the caps (${this.#maxEntries} entries, ${this.#maxDepth} levels)`);
        }
        if (entry.isDirectory()) await this.remove(directory, entry.name, depth + 1);
        else await this.#unlink(directory, entry.name, depth + 1);
      }
    } finally {
      closeTreeDirectory(directory);
    }
    rmdirSync(`${parent.base}/${name}`);
    this.directories++;
  }

  async #unlink(parent: OpenTreeDirectory, name: string, depth: number): Promise<void> {
    try {
      unlinkSync(`${parent.base}/${name}`);
      this.files++;
    } catch (error) {
      // Became a directory since it was listed.
      if (errorCode(error) === 'EISDIR') return this.remove(parent, name, depth);
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
}

/** See PathGuard.remove. */
export async function removeEntry(
  guard: GuardAccess,
  target: GuardedPath,
  options: RemoveOptions,
): Promise<RemoveSummary> {
  checkWritable(guard.readOnly, target.grant, target.requested);
  for (const grant of guard.grants) {
    if (!isWithin(grant.path, target.path)) continue;
    throw accessDenied(
      target.requested,
      grant.path === target.path
        ? 'is an allowed directory itself and cannot be deleted'
        : 'holds an allowed directory and cannot be deleted',
    );
  }
  const name = basename(target.path);
  let parent: OpenTreeDirectory;
  try {
    parent = openTreeDirectory(undefined, '', dirname(target.path));
  } catch (error) {
    throw fileSystemToolError(error, target.requested);
  }
  let removal: TreeRemoval | undefined;
  try {
    const grant = grantFor(parent.actual, guard.grants);
    if (grant === undefined) throw accessDenied(target.requested, 'was swapped for a link leading outside');
    checkWritable(guard.readOnly, grant, target.requested);
    const at = `${parent.base}/${name}`;
    const stats = lstatSync(at);
    if (!stats.isDirectory()) {
      unlinkSync(at);
      return { files: 1, directories: 0 };
    }
    if (options.recursive !== true) {
      throw new ToolError(
        `"${target.requested}" is a directory; pass recursive: true to delete it and everything in it.`,
      );
    }
    removal = new TreeRemoval(guard, target, options, stats.dev);
    const top = removal.open(parent, name);
    try {
      await removal.measure(top, 1);
    } finally {
      closeTreeDirectory(top);
    }
    await removal.remove(parent, name, 1);
    return { files: removal.files, directories: removal.directories };
  } catch (error) {
    const reason = fileSystemToolError(error, target.requested);
    if (removal === undefined || removal.files + removal.directories === 0) throw reason;
    const why = ToolError.isInstance(reason) ? reason.message : String(reason);
    throw new ToolError(
      `Deleting "${target.requested}" stopped after ${removal.files} files and ${removal.directories} ` +
        `directories were deleted: ${why}`,
    );
  } finally {
    closeTreeDirectory(parent);
  }
}
