import { closeSync, fchmodSync, lstatSync, mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { randomHex, ToolError } from '@toolshed/mcp-core';
import {
  checkSameFile,
  copyFileContent,
  keptModeBits,
  type OpenedSourceFile,
  openSourceFile,
  processOwner,
} from './copied-file.ts';
import { errorCode, fileSystemToolError } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import { removeEntry } from './guarded-remove.ts';
import { TreeCopy } from './guarded-tree-copy.ts';
import { grantFor, isWithin } from './path-containment.ts';
import type { GuardAccess, GuardedPath } from './path-guard.ts';
import { closeTreeDirectory, type OpenTreeDirectory, openTreeDirectory } from './verified-descriptor-tree.ts';

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

function alreadyExists(requested: string): ToolError {
  return new ToolError(`"${requested}" already exists; a copy never replaces anything. Choose a new name.`);
}

/** A single file: copied to a hidden name beside the destination, then linked into place, so it appears whole. */
async function copySingleFile(
  guard: GuardAccess,
  file: OpenedSourceFile,
  sourceDirectory: OpenTreeDirectory,
  sourceName: string,
  destinationDirectory: OpenTreeDirectory,
  destination: GuardedPath,
  maxBytes: number,
): Promise<CopySummary> {
  const { link, lstat, rename, unlink } = process.getBuiltinModule('node:fs/promises');
  if (file.stats.size > maxBytes) {
    throw new ToolError(`The file is ${file.stats.size} bytes; a copy may make at most ${maxBytes}.`);
  }
  const name = basename(destination.path);
  const temporary = `${destinationDirectory.base}/.${name}.${randomHex(6)}.tmp`;
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
  guard: GuardAccess,
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
