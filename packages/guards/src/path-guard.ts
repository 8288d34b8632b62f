import { constants, type Dirent, fstatSync, realpathSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { LocalError, ToolError } from '@toolshed/mcp-core';
import { descriptorGrant } from './descriptor-grant.ts';
import { fileSystemToolError } from './file-system-error.ts';
import { accessDenied, checkWritable } from './grant-access.ts';
import { type AppendOutcome, appendToFile } from './guarded-append.ts';
import { type CopyOptions, type CopySummary, copyEntry } from './guarded-copy.ts';
import { type RemoveOptions, type RemoveSummary, removeEntry } from './guarded-remove.ts';
import { descriptorPath } from './opened-file-path.ts';
import { grantFor, isWithin } from './path-containment.ts';
import { type PathAccess, type PathGrant, parsePathGrant } from './path-grant.ts';

/** A path that passed the guard. */
export interface GuardedPath {
  /**
   * The real path: symbolic links resolved. For a path that does not exist
   * yet, the real path of its nearest existing ancestor plus the rest.
   */
  readonly path: string;
  readonly exists: boolean;
  readonly grant: PathGrant;
  /** The path as the caller wrote it: the only one error messages show. */
  readonly requested: string;
}

export interface PathGuardOptions {
  /** Refuse every write, whatever the grants say. */
  readOnly?: boolean;
  /** What `~` expands to. Default: the user's home directory. */
  homeDirectory?: string;
}

export interface ResolveOptions {
  /** Check a write: the path must be under a read-write grant. Default: read. */
  access?: PathAccess;
  /**
   * Resolve the parent only and keep the last name as it is, so that a
   * symbolic link is itself the target (moving or removing the link, not what
   * it points to). Default: false, the last name is followed.
   */
  keepLastLink?: boolean;
  /**
   * Refuse the path when any of its names is a symbolic link, even one that
   * stays inside: for operations that must never go through a link. With
   * `keepLastLink`, the last name is not looked at here. Default: false.
   */
  refuseLinks?: boolean;
}

// Linux's PATH_MAX. Longer requests are refused before touching the disk.
const maxPathLength = 4096;
const windowsPath = /^(?:[A-Za-z]:(?:[\\/]|$)|\\\\|\\[^\\])/;
const openForReading = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const openDirectory = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const openTemporary = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const denied = accessDenied;

/** Whether anything — file, directory, link, even a dangling one — has this name. */
function entryExists(path: string): Promise<boolean> {
  // node:fs/promises and node:crypto are loaded where used, not imported: nothing at start needs them, and loading
  // them there would cost every server's start.
  const { lstat } = process.getBuiltinModule('node:fs/promises');
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The one place that decides whether a path may be used. Every request is
 * checked lexically (NUL, Windows forms, separator-aware containment), then
 * by its real path (symbolic links resolved; for new files, the nearest
 * existing ancestor's), and files are verified again after opening — the
 * kernel says which file the descriptor holds — so a link swapped in between
 * the check and the use cannot lead outside. Messages name the path as
 * written and never the allowed directories.
 *
 * @example
 * const guard = PathGuard.create(['/srv/docs:ro', '/srv/out']);
 * const target = await guard.resolve('report.txt');
 * const handle = await guard.openFile(target);
 */
export class PathGuard {
  readonly grants: readonly PathGrant[];
  readonly readOnly: boolean;
  readonly #home: string;

  private constructor(grants: readonly PathGrant[], readOnly: boolean, home: string) {
    this.grants = grants;
    this.readOnly = readOnly;
    this.#home = home;
  }

  /**
   * Grants from the operator's `DIR`, `DIR:ro` and `DIR:rw` (or objects).
   * Each must be an existing directory; its real path is what is granted.
   */
  static create(
    grants: readonly (string | { path: string; access?: PathAccess })[],
    options: PathGuardOptions = {},
  ): PathGuard {
    const home = options.homeDirectory ?? homedir();
    const resolved: PathGrant[] = [];
    for (const grant of grants) {
      const parsed =
        typeof grant === 'string'
          ? parsePathGrant(grant.startsWith('~/') || grant === '~' ? home + grant.slice(1) : grant)
          : { path: resolve(grant.path), access: grant.access ?? 'write' };
      let real: string;
      try {
        real = realpathSync(parsed.path);
      } catch {
        throw new LocalError('config_invalid', `${parsed.path} does not exist; allowed directories must exist`);
      }
      if (!statSync(real).isDirectory()) {
        throw new LocalError('config_invalid', `${parsed.path} is not a directory`);
      }
      if (!resolved.some((known) => known.path === real && known.access === parsed.access)) {
        resolved.push({ path: real, access: parsed.access });
      }
    }
    return new PathGuard(resolved, options.readOnly ?? false, home);
  }

  /** Whether any write could pass: read-only servers do not even list their write tools. */
  get writable(): boolean {
    return !this.readOnly && this.grants.some((grant) => grant.access === 'write');
  }

  /**
   * The guard left when the client's roots are applied: a root can only
   * narrow a grant, never widen it. A root inside a grant becomes a grant
   * with that grant's access; a grant inside a root stays; roots that do not
   * exist or lie outside every grant give nothing. No roots, no access.
   */
  async narrow(rootPaths: readonly string[]): Promise<PathGuard> {
    const { realpath, stat } = process.getBuiltinModule('node:fs/promises');
    const narrowed: PathGrant[] = [];
    const add = (grant: PathGrant) => {
      if (!narrowed.some((known) => known.path === grant.path && known.access === grant.access)) narrowed.push(grant);
    };
    for (const rootPath of rootPaths) {
      if (!isAbsolute(rootPath) || rootPath.includes('\0')) continue;
      let real: string;
      try {
        real = await realpath(rootPath);
        if (!(await stat(real)).isDirectory()) continue;
      } catch {
        continue;
      }
      const holder = grantFor(real, this.grants);
      if (holder !== undefined) add({ path: real, access: holder.access });
      for (const grant of this.grants) {
        if (grant.path !== real && isWithin(grant.path, real)) add(grant);
      }
    }
    return new PathGuard(narrowed, this.readOnly, this.#home);
  }

  /** Checks a request and finds its real path; throws a ToolError saying why not. */
  async resolve(requested: string, options: ResolveOptions = {}): Promise<GuardedPath> {
    const access = options.access ?? 'read';
    const absolute = this.#absolute(requested);
    const parent = options.keepLastLink === true ? dirname(absolute) : absolute;
    let real: string;
    let exists = true;
    try {
      // The native call is one realpath(3) in the kernel's cache: cheaper
      // than a trip through the thread pool for the common case.
      real = realpathSync.native(parent);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemToolError(error, requested);
      real = await this.#realPathOfMissing(parent, requested);
      exists = false;
    }
    if (options.keepLastLink === true) {
      const last = basename(absolute);
      if (absolute !== parent && last !== '' && last !== '.' && last !== '..') real = join(real, last);
      exists = await entryExists(real);
    }
    const grant = grantFor(real, this.grants);
    if (grant === undefined) throw denied(requested, 'leads outside the allowed directories through a symbolic link');
    // The real path differs from the written one exactly when a name on the way is a link.
    if (options.refuseLinks === true && real !== absolute) {
      throw denied(requested, 'goes through a symbolic link; give the path without links');
    }
    if (access === 'write') this.#checkWritable(grant, requested);
    return { path: real, exists, grant, requested };
  }

  /**
   * Opens a file for reading and verifies that the opened file is inside a
   * grant. Never follows a link at the last name, never blocks on a FIFO,
   * refuses anything but a regular file.
   */
  async openFile(target: GuardedPath): Promise<FileHandle> {
    const { open } = process.getBuiltinModule('node:fs/promises');
    let handle: FileHandle;
    try {
      handle = await open(target.path, openForReading);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
        throw denied(target.requested, 'became a symbolic link while it was being opened');
      }
      throw fileSystemToolError(error, target.requested);
    }
    try {
      await this.#verifyOpened(handle.fd, target, 'read');
      if (!fstatSync(handle.fd).isFile()) throw new ToolError(`"${target.requested}" is not a regular file.`);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Lists a directory after verifying, through its open descriptor, that it is the one that was checked. */
  async readDirectory(target: GuardedPath): Promise<Dirent[]> {
    const { open, readdir } = process.getBuiltinModule('node:fs/promises');
    let handle: FileHandle;
    try {
      handle = await open(target.path, openDirectory);
    } catch (error) {
      throw fileSystemToolError(error, target.requested);
    }
    try {
      await this.#verifyOpened(handle.fd, target, 'read');
      return await readdir(descriptorPath(handle.fd) ?? target.path, { withFileTypes: true });
    } catch (error) {
      throw fileSystemToolError(error, target.requested);
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes a file atomically: a temporary file in the same directory, written
   * and flushed, then renamed over the target — readers see the old content or
   * the new, never half. An existing file keeps its permission bits; a link
   * at the last name is replaced, never followed; a hard link to the file is
   * left with the old content rather than changed from here. With
   * `exclusive`, an existing target is an error and is left untouched.
   */
  async writeFile(
    target: GuardedPath,
    data: string | Uint8Array,
    options: { exclusive?: boolean } = {},
  ): Promise<void> {
    const { link, lstat, open, rename, unlink } = process.getBuiltinModule('node:fs/promises');
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    this.#checkWritable(target.grant, target.requested);
    let existingMode: number | undefined;
    try {
      const existing = await lstat(target.path);
      if (options.exclusive === true) throw new ToolError(`"${target.requested}" already exists.`);
      if (existing.isDirectory()) throw new ToolError(`"${target.requested}" is a directory, not a file.`);
      if (existing.isFile()) existingMode = existing.mode & 0o7777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemToolError(error, target.requested);
    }
    const temporary = join(dirname(target.path), `.${basename(target.path)}.${randomBytes(6).toString('hex')}.tmp`);
    let handle: FileHandle | undefined;
    try {
      // A new file gets the usual 0666 less the umask; an existing one keeps its bits.
      handle = await open(temporary, openTemporary, existingMode === undefined ? 0o666 : 0o600);
      await this.#verifyOpened(handle.fd, { ...target, path: temporary }, 'write');
      await handle.writeFile(data);
      if (existingMode !== undefined) await handle.chmod(existingMode);
      await handle.datasync();
      await handle.close();
      handle = undefined;
      if (options.exclusive === true) {
        // link() fails if the name exists: no window in which a file that
        // appeared meanwhile would be overwritten.
        await link(temporary, target.path);
        await unlink(temporary);
      } else {
        await rename(temporary, target.path);
      }
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ToolError(`The directory of "${target.requested}" does not exist; create it first.`);
      }
      throw fileSystemToolError(error, target.requested);
    }
  }

  /**
   * Creates a directory and any missing parents, one level at a time: each
   * new level is made inside the verified descriptor of the one above, so a
   * link swapped into the chain cannot carry the creation outside.
   */
  async makeDirectory(target: GuardedPath): Promise<void> {
    const { mkdir, open } = process.getBuiltinModule('node:fs/promises');
    this.#checkWritable(target.grant, target.requested);
    const missing: string[] = [];
    let existing = target.path;
    while (!(await entryExists(existing))) {
      missing.unshift(basename(existing));
      existing = dirname(existing);
    }
    let handle: FileHandle | undefined;
    try {
      handle = await open(existing, openDirectory);
      await this.#verifyOpened(handle.fd, { ...target, path: existing }, missing.length > 0 ? 'write' : 'read');
      for (const name of missing) {
        const inside = `${descriptorPath(handle.fd) ?? existing}/${name}`;
        await mkdir(inside).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        const next = await open(inside, openDirectory);
        await handle.close();
        handle = next;
        existing = join(existing, name);
        await this.#verifyOpened(handle.fd, { ...target, path: existing }, 'write');
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        throw new ToolError(`"${target.requested}" exists and is not a directory.`);
      }
      throw fileSystemToolError(error, target.requested);
    } finally {
      await handle?.close();
    }
  }

  /**
   * Moves a file or directory (the entry itself: a link is moved, not its
   * target) between verified parent directories. Refuses to replace an
   * existing destination unless `overwrite`; for files the refusal is atomic
   * (link, then unlink).
   */
  async move(source: GuardedPath, destination: GuardedPath, options: { overwrite?: boolean } = {}): Promise<void> {
    const { link, lstat, open, rename, unlink } = process.getBuiltinModule('node:fs/promises');
    this.#checkWritable(source.grant, source.requested);
    this.#checkWritable(destination.grant, destination.requested);
    if (source.path === source.grant.path)
      throw denied(source.requested, 'is an allowed directory itself and cannot be moved');
    const handles: FileHandle[] = [];
    try {
      const [from, to] = await Promise.all(
        [source, destination].map(async (target) => {
          const parent = dirname(target.path);
          const handle = await open(parent, openDirectory);
          handles.push(handle);
          await this.#verifyOpened(handle.fd, { ...target, path: parent }, 'write');
          return `${descriptorPath(handle.fd) ?? parent}/${basename(target.path)}`;
        }),
      );
      const alreadyExists = () =>
        new ToolError(`"${destination.requested}" already exists; pass overwrite: true to replace it.`);
      if (options.overwrite === true) {
        await rename(from as string, to as string);
        return;
      }
      // Files: link() refuses an existing name atomically. Directories, and
      // file systems without hard links: check, then rename.
      const linked =
        !(await lstat(from as string)).isDirectory() &&
        (await link(from as string, to as string).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'EEXIST') throw alreadyExists();
            if (error.code === 'EPERM' || error.code === 'ENOTSUP' || error.code === 'EMLINK') return false;
            throw error;
          },
        ));
      if (linked) {
        await unlink(from as string);
        return;
      }
      if (await entryExists(to as string)) throw alreadyExists();
      await rename(from as string, to as string);
    } catch (error) {
      throw fileSystemToolError(error, source.requested);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  }

  /**
   * Appends to a regular file, creating it when missing: opened with
   * `O_APPEND | O_NOFOLLOW` (a link at the last name is refused, never
   * followed) and verified after opening. The data is appended whole or not
   * at all: a short write is cut back off. `maxFileBytes` caps the file's size
   * after the append.
   */
  appendFile(
    target: GuardedPath,
    data: string | Uint8Array,
    options: { maxFileBytes?: number } = {},
  ): Promise<AppendOutcome> {
    return appendToFile(this, target, data, options);
  }

  /**
   * Deletes a file, link or other entry (a link itself, never its target),
   * or a directory with `recursive`. Refused on a grant's root or on anything
   * holding one, and in read-only grants. A recursive delete counts the tree
   * first and refuses it over `maxEntries` or `maxDepth` before deleting
   * anything; it goes through verified directory descriptors, never follows
   * a link and never crosses into another device.
   */
  remove(target: GuardedPath, options: RemoveOptions = {}): Promise<RemoveSummary> {
    return removeEntry(this, target, options);
  }

  /**
   * Copies a regular file, or a directory tree, to a destination that must
   * not exist, in a read-write grant; the source may be in any grant. Never
   * through a link: files are opened with `O_NOFOLLOW` through verified
   * directory descriptors, links and special files in a tree are skipped and
   * named. A tree over `maxEntries` or `maxDepth` is refused before anything
   * is copied; one whose files reach `maxBytes` is stopped and what was
   * copied deleted again. Modes and times are kept, owners are not.
   */
  copy(source: GuardedPath, destination: GuardedPath, options: CopyOptions = {}): Promise<CopySummary> {
    return copyEntry(this, source, destination, options);
  }

  #checkWritable(grant: PathGrant, requested: string): void {
    checkWritable(this.readOnly, grant, requested);
  }

  #absolute(requested: string): string {
    if (typeof requested !== 'string' || requested === '') throw new ToolError('A path is required.');
    if (requested.includes('\0')) throw denied(requested.replaceAll('\0', '\\0'), 'contains a NUL character');
    if (requested.length > maxPathLength) {
      throw new ToolError(`The path is ${requested.length} characters long; at most ${maxPathLength} are allowed.`);
    }
    if (sep === '/' && windowsPath.test(requested)) {
      throw denied(requested, 'is a Windows path; this server runs on a POSIX system and takes /-separated paths');
    }
    const expanded = requested === '~' || requested.startsWith('~/') ? this.#home + requested.slice(1) : requested;
    if (this.grants.length === 0) throw denied(requested, 'cannot be used: no directory is allowed now');
    if (isAbsolute(expanded)) {
      const absolute = resolve(expanded);
      if (grantFor(absolute, this.grants) === undefined) throw denied(requested, 'is outside the allowed directories');
      return absolute;
    }
    // Relative paths are taken against each allowed directory in turn, as the
    // reference server does; `..` can never climb out of the one chosen.
    for (const grant of this.grants) {
      const candidate = resolve(grant.path, expanded);
      if (isWithin(candidate, grant.path)) return candidate;
    }
    throw denied(requested, 'is outside the allowed directories');
  }

  /** The nearest existing ancestor's real path, plus the names that do not exist yet. */
  async #realPathOfMissing(absolute: string, requested: string): Promise<string> {
    const { realpath, stat } = process.getBuiltinModule('node:fs/promises');
    const missing: string[] = [];
    let current = absolute;
    for (;;) {
      missing.unshift(basename(current));
      const parent = dirname(current);
      if (parent === current) throw denied(requested, 'is outside the allowed directories');
      current = parent;
      try {
        const real = await realpath(current);
        if (!(await stat(real)).isDirectory())
          throw new ToolError(`"${requested}" has a part that is not a directory.`);
        return join(real, ...missing);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemToolError(error, requested);
      }
    }
  }

  /** After open: the descriptor must hold a file inside a grant that allows `access`. */
  async #verifyOpened(fd: number, target: GuardedPath, access: PathAccess): Promise<void> {
    const grant = descriptorGrant(fd, target.path, this.grants);
    if (grant === undefined)
      throw denied(target.requested, 'was swapped for a link leading outside while it was opened');
    if (access === 'write') this.#checkWritable(grant, target.requested);
  }
}

/** What a write through the guard needs of it: its grants, and whether the whole guard is read-only. */
export type GuardAccess = Pick<PathGuard, 'grants' | 'readOnly'>;
