import { accessSync, constants, fstatSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type GuardedPath, PathGuard } from '@toolshed/guards';
import { LocalError, ToolError } from '@toolshed/mcp-core';
import type { ExportFileTarget } from './query-messages.ts';

/** A new temporary file: created here or not at all, never through a link. */
const createTemporary = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** One export's file while it is written: where it will be, and the temporary file that is written. */
export interface PendingExport {
  /** The real path the file will have. */
  readonly path: string;
  /** The temporary file the engine writes, next to where the file will be. */
  readonly temporary: ExportFileTarget;
  /** Bytes written so far, for progress. */
  size(): number;
  /** Gives the temporary file the export's name, atomically; an error (and no file) when the name was taken meanwhile. */
  publish(): Promise<void>;
  /** Removes the temporary file: a failed, cancelled or stopped export leaves nothing. */
  discard(): Promise<void>;
}

function refusal(file: string, why: string): ToolError {
  return new ToolError(`"${file}" ${why}. Name a new file inside the export directory, such as "orders.csv".`);
}

/** The path guard's reason, in the export directory's words. */
function guardReason(file: string, message: string): string {
  const prefix = `Access denied: "${file}" `;
  const why = message.startsWith(prefix) ? message.slice(prefix.length).replace(/\.$/, '') : message;
  return why.replaceAll('the allowed directories', 'the export directory');
}

/**
 * The one directory export_query may write to, through the guards' path
 * rules: a name is taken relative to it, `..` is refused outright, a path
 * that leads outside (absolute, or through a symbolic link) is refused on
 * its real path, and an existing name — a link included, dangling or not —
 * is never replaced. Each export writes a temporary file of its own,
 * created with O_EXCL and without following links, next to the file it
 * will become; only when the export has succeeded is it linked to its name
 * (link(2) fails on a name that exists, so even a file that appeared
 * meanwhile is not replaced) and the temporary name removed.
 */
export class ExportDirectory {
  readonly #guard: PathGuard;

  /** Refuses, as a configuration error, a directory that does not exist or cannot be written. */
  constructor(directory: string) {
    try {
      if (!statSync(directory).isDirectory()) throw new Error('not a directory');
      accessSync(directory, constants.W_OK);
    } catch (error) {
      throw new LocalError(
        'config_invalid',
        `--export-dir ${directory} must be an existing directory this server can write to (${(error as Error).message})`,
      );
    }
    this.#guard = PathGuard.create([{ path: directory, access: 'write' }]);
  }

  /** Checks the name and makes the temporary file; throws a ToolError a model can act on. */
  async prepare(file: string): Promise<PendingExport> {
    if (file.includes('\0')) throw refusal(file.replaceAll('\0', '\\0'), 'contains a NUL character');
    const parts = file.split(/[\\/]/);
    if (parts.includes('..')) throw refusal(file, 'has a ".." part, which exports never take');
    if (/[\\/]$/.test(file)) throw refusal(file, 'names a directory, not a file');
    // Checked before anything runs: the file system would refuse it only when the finished export is named.
    if (Buffer.byteLength(parts.at(-1) ?? '') > 255) throw refusal(file, 'has a name longer than 255 bytes');
    let target: GuardedPath;
    try {
      // keepLastLink: a link at the name is itself what exists there, never followed.
      target = await this.#guard.resolve(file, { access: 'write', keepLastLink: true });
    } catch (error) {
      throw ToolError.isInstance(error) ? refusal(file, guardReason(file, error.message)) : error;
    }
    if (target.exists) throw refusal(file, 'already exists, and exports never replace a file');
    // Loaded where used, as the path guard does: a server that never exports never loads them.
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    const { open } = process.getBuiltinModule('node:fs/promises');
    const temporaryPath = join(dirname(target.path), `.toolshed-export-${randomBytes(8).toString('hex')}.tmp`);
    let handle: FileHandle;
    try {
      handle = await open(temporaryPath, createTemporary, 0o666);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw refusal(file, 'is in a directory that does not exist');
      throw refusal(file, `cannot be written (${code ?? (error as Error).message})`);
    }
    const discard = async () => {
      await handle.close().catch(() => {});
      const { unlink } = process.getBuiltinModule('node:fs/promises');
      await unlink(temporaryPath).catch(() => {});
    };
    try {
      const stats = await handle.stat({ bigint: true });
      await this.#checkCreated(temporaryPath, stats.dev, stats.ino, file);
      return {
        path: target.path,
        temporary: { path: temporaryPath, device: String(stats.dev), inode: String(stats.ino) },
        size: () => fstatSync(handle.fd).size,
        publish: async () => {
          await handle.close();
          try {
            await this.#link(temporaryPath, target.path, file);
          } finally {
            await discard();
          }
        },
        discard,
      };
    } catch (error) {
      await discard();
      throw error;
    }
  }

  /** The file just made must be inside the directory, by its real path: a directory swapped for a link is refused. */
  async #checkCreated(path: string, device: bigint, inode: bigint, file: string): Promise<void> {
    const { lstat } = process.getBuiltinModule('node:fs/promises');
    const created = await this.#guard.resolve(path, { access: 'write', keepLastLink: true });
    const named = await lstat(created.path, { bigint: true });
    if (named.dev !== device || named.ino !== inode) {
      throw refusal(file, 'was reached through a link swapped in while the export started');
    }
  }

  /** The temporary file under the export's name, never over a file that has that name by now. */
  async #link(temporaryPath: string, path: string, file: string): Promise<void> {
    const { link, lstat, rename } = process.getBuiltinModule('node:fs/promises');
    try {
      await link(temporaryPath, path);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        throw refusal(file, 'was created by someone else while the export ran; the export was not kept');
      // File systems without hard links: check, then rename (the one window the guard's own writes also have).
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK' && code !== 'EOPNOTSUPP') {
        throw refusal(file, `cannot be written (${code ?? (error as Error).message})`);
      }
    }
    if (
      await lstat(path).then(
        () => true,
        () => false,
      )
    ) {
      throw refusal(file, 'was created by someone else while the export ran; the export was not kept');
    }
    await rename(temporaryPath, path);
  }
}
