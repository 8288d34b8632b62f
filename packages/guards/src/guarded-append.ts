import { Buffer } from 'node:buffer';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ToolError } from '@toolshed/mcp-core';
import { descriptorGrant } from './descriptor-grant.ts';
import { fileSystemToolError } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import { descriptorPath } from './opened-file-path.ts';
import type { GuardAccess, GuardedPath } from './path-guard.ts';

/** What an append did. */
export interface AppendOutcome {
  /** The file did not exist and was made. */
  readonly created: boolean;
  /** The file's size after the append. */
  readonly size: number;
}

const openDirectory = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// O_NONBLOCK and O_NOCTTY: a FIFO or a terminal swapped in opens at once and without side effects; fstat then
// refuses it.
const openForAppending =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NOFOLLOW |
  constants.O_NONBLOCK |
  constants.O_NOCTTY;

function notRegular(requested: string): ToolError {
  return new ToolError(`"${requested}" is not a regular file; only regular files are appended to.`);
}

function swapped(requested: string): ToolError {
  return accessDenied(requested, 'was swapped for a link leading outside while it was opened');
}

/** See PathGuard.appendFile. */
export async function appendToFile(
  guard: GuardAccess,
  target: GuardedPath,
  data: string | Uint8Array,
  options: { maxFileBytes?: number },
): Promise<AppendOutcome> {
  const { lstat, open } = process.getBuiltinModule('node:fs/promises');
  checkWritable(guard.readOnly, target.grant, target.requested);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const parentPath = dirname(target.path);
  let directory: FileHandle | undefined;
  let file: FileHandle | undefined;
  let created = false;
  let appended = false;
  let at = '';
  try {
    // The file is opened, and made when missing, only by name inside its verified directory: a directory swapped
    // for a link between the check and the open cannot carry the file outside.
    directory = await open(parentPath, openDirectory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        throw new ToolError(`The directory of "${target.requested}" does not exist; create it first.`);
      }
      throw error;
    });
    const directoryGrant = descriptorGrant(directory.fd, parentPath, guard.grants);
    if (directoryGrant === undefined) throw swapped(target.requested);
    checkWritable(guard.readOnly, directoryGrant, target.requested);
    at = `${descriptorPath(directory.fd) ?? parentPath}/${basename(target.path)}`;
    // Looked at before opening: opening a device can have effects of its own, so only a file or nothing is opened.
    const before = await lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (before?.isDirectory() === true) throw new ToolError(`"${target.requested}" is a directory, not a file.`);
    if (before?.isSymbolicLink() === true) throw accessDenied(target.requested, 'is a symbolic link');
    if (before !== undefined && !before.isFile()) throw notRegular(target.requested);
    file = await open(at, openForAppending, 0o666).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ELOOP') throw accessDenied(target.requested, 'became a symbolic link while it was opened');
      if (error.code === 'ENXIO') throw notRegular(target.requested);
      throw error;
    });
    created = before === undefined;
    const fileGrant = descriptorGrant(file.fd, target.path, guard.grants);
    if (fileGrant === undefined) throw swapped(target.requested);
    checkWritable(guard.readOnly, fileGrant, target.requested);
    const stats = await file.stat();
    if (!stats.isFile()) throw notRegular(target.requested);
    // Written to in place, a file with another name would change under that name too; write_file replaces the
    // name here and leaves the other one alone.
    if (stats.nlink > 1) {
      throw new ToolError(
        `"${target.requested}" has other hard links, which an append would change too; replace the file instead ` +
          'to change this name alone.',
      );
    }
    const after = stats.size + bytes.length;
    if (options.maxFileBytes !== undefined && after > options.maxFileBytes) {
      throw new ToolError(
        `"${target.requested}" would be ${after} bytes after the append; files over ${options.maxFileBytes} ` +
          'bytes are not written.',
      );
    }
    // One write with O_APPEND: the kernel puts it at the end as one piece. A short one (a full disk, a size
    // limit) is cut back off, so the file is as it was or has all of the data.
    const { bytesWritten } = await file.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) {
      await file.truncate(stats.size);
      throw new ToolError(
        `Only ${bytesWritten} of ${bytes.length} bytes could be appended to "${target.requested}" (is the disk ` +
          'full?); nothing was appended.',
      );
    }
    await file.datasync();
    appended = true;
    return { created, size: after };
  } catch (error) {
    throw fileSystemToolError(error, target.requested);
  } finally {
    await file?.close();
    // A file this call made and did not fill is taken away again, by name inside the verified directory.
    if (created && !appended) {
      const { unlink } = process.getBuiltinModule('node:fs/promises');
      await unlink(at).catch(() => undefined);
    }
    await directory?.close();
  }
}
