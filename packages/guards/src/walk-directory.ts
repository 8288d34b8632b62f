import { closeSync, constants, type Dirent, fstatSync, lstatSync, openSync, readdirSync } from 'node:fs';
import { ToolError } from '@toolshed/mcp-core';
import { fileSystemToolError } from './file-system-error.ts';
import { descriptorPath, openedFilePath } from './opened-file-path.ts';
import { isWithin } from './path-containment.ts';
import type { GuardedPath } from './path-guard.ts';

/** One entry met on a walk. Links are reported, never followed. */
export interface WalkEntry {
  readonly name: string;
  /** From the walk's start, `/`-separated. */
  readonly relativePath: string;
  /** The real path: the walk never leaves real directories. */
  readonly path: string;
  /** 1 for the start directory's own entries. */
  readonly depth: number;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
}

export interface WalkOptions {
  /** Deepest level whose entries are visited; 1 lists the start only. Default: unlimited. */
  maxDepth?: number;
  signal?: AbortSignal;
  /**
   * Called for each entry in directory order, depth first. Return `'skip'`
   * to not descend into a directory, `'stop'` to end the walk.
   */
  visit(entry: WalkEntry): 'skip' | 'stop' | undefined;
  /** Called after a directory's entries, for builders of nested output. */
  leave?(entry: WalkEntry): void;
  /**
   * Called with a directory's listing before its entries are visited: the
   * start (`relativePath` ''), then each directory the walk descends into.
   * For walks that act on files a directory holds (ignore files, say)
   * without a look-up of their own.
   */
  enter?(directory: { readonly path: string; readonly relativePath: string }, entries: readonly Dirent[]): void;
  /** Listings kept from earlier walks, reused while each directory is unchanged. */
  cache?: DirectoryListingCache;
}

interface CachedListing {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  entries: Dirent[];
}

// A listing is kept only when its directory last changed longer ago than
// this: file system clocks can be coarse (a tick of several milliseconds), so
// a change within the same tick as the listing would not move mtime.
const settledMs = 2000;

/**
 * Directory listings from earlier walks, reused while the directory's
 * identity and change times are the same — a directory's mtime and ctime move
 * whenever an entry is added, removed or renamed. Checking costs one lstat
 * instead of open, verify, list and close. Only listings that were verified
 * inside when read are ever kept, so a hit cannot lead outside either. Bounded
 * by the number of entries held; the oldest listings go first.
 */
export class DirectoryListingCache {
  readonly #listings = new Map<string, CachedListing>();
  readonly #maxEntries: number;
  #held = 0;

  constructor(maxEntries = 500_000) {
    this.#maxEntries = maxEntries;
  }

  /** The listing of `path` if it is unchanged since it was kept. */
  get(path: string): Dirent[] | undefined {
    const cached = this.#listings.get(path);
    if (cached === undefined) return undefined;
    let stats: { dev: number; ino: number; mtimeMs: number; ctimeMs: number; isDirectory(): boolean };
    try {
      stats = lstatSync(path);
    } catch {
      return undefined;
    }
    if (
      !stats.isDirectory() ||
      stats.dev !== cached.dev ||
      stats.ino !== cached.ino ||
      stats.mtimeMs !== cached.mtimeMs ||
      stats.ctimeMs !== cached.ctimeMs
    ) {
      return undefined;
    }
    return cached.entries;
  }

  set(path: string, listing: CachedListing): void {
    const now = Date.now();
    if (now - listing.mtimeMs < settledMs || now - listing.ctimeMs < settledMs) return;
    const previous = this.#listings.get(path);
    if (previous !== undefined) {
      this.#held -= previous.entries.length;
      this.#listings.delete(path);
    }
    this.#listings.set(path, listing);
    this.#held += listing.entries.length;
    for (const [oldest, evicted] of this.#listings) {
      if (this.#held <= this.#maxEntries) break;
      this.#listings.delete(oldest);
      this.#held -= evicted.entries.length;
    }
  }
}

export interface WalkSummary {
  /** False when `visit` stopped the walk, or `maxDepth` left directories unread. */
  readonly complete: boolean;
  readonly directoriesRead: number;
  /** Directories that could not be listed (permissions, vanished meanwhile). */
  readonly unreadable: number;
}

const openDirectory = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// Synchronous listing is several times faster than the promise API for many
// small directories; slices of this length keep the event loop responsive
// and let cancellation in between.
const sliceMs = 10;

type Frame = {
  entry: WalkEntry | undefined;
  path: string;
  relative: string;
  depth: number;
  entries: Dirent[];
  next: number;
};

function typeOf(entry: Dirent): WalkEntry['type'] {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Lists one directory through its descriptor after checking the kernel's word on where it is. */
function listVerified(path: string, root: string, cache: DirectoryListingCache | undefined): Dirent[] {
  const cached = cache?.get(path);
  if (cached !== undefined) return cached;
  const fd = openSync(path, openDirectory);
  try {
    const opened = openedFilePath(fd);
    if (opened !== undefined && !isWithin(opened, root)) {
      throw new ToolError('A directory was swapped for a link leading outside while it was being read.');
    }
    // Stat before listing: a change during the listing moves mtime past what is kept.
    const stats = cache === undefined ? undefined : fstatSync(fd);
    const entries = readdirSync(descriptorPath(fd) ?? path, { withFileTypes: true });
    if (stats !== undefined && opened !== undefined) {
      cache?.set(path, { dev: stats.dev, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, entries });
    }
    return entries;
  } finally {
    closeSync(fd);
  }
}

/**
 * Walks a guarded directory depth first, in the order the file system lists
 * entries, without following links: every directory is opened without
 * following a link at its name and verified after opening to be inside the
 * start, so the walk cannot be led out. Stops when `signal` aborts (throws
 * its reason) or when `visit` says so.
 */
export async function walkDirectory(start: GuardedPath, options: WalkOptions): Promise<WalkSummary> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let entries: Dirent[];
  try {
    entries = listVerified(start.path, start.path, options.cache);
  } catch (error) {
    throw fileSystemToolError(error, start.requested);
  }
  options.enter?.({ path: start.path, relativePath: '' }, entries);
  const stack: Frame[] = [{ entry: undefined, path: start.path, relative: '', depth: 1, entries, next: 0 }];
  let directoriesRead = 1;
  let unreadable = 0;
  let complete = true;
  let sliceStart = performance.now();
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      if (frame.entry !== undefined) options.leave?.(frame.entry);
      continue;
    }
    const dirent = frame.entries[frame.next++] as Dirent;
    const relativePath = frame.relative === '' ? dirent.name : `${frame.relative}/${dirent.name}`;
    const entry: WalkEntry = {
      name: dirent.name,
      relativePath,
      // Concatenation, not join(): the parent is a normalised real path and a name has no separator.
      path: frame.path === '/' ? `/${dirent.name}` : `${frame.path}/${dirent.name}`,
      depth: frame.depth,
      type: typeOf(dirent),
    };
    const verdict = options.visit(entry);
    if (verdict === 'stop') return { complete: false, directoriesRead, unreadable };
    if (entry.type !== 'directory' || verdict === 'skip') continue;
    if (frame.depth >= maxDepth) {
      complete = false;
      options.leave?.(entry);
      continue;
    }
    let children: Dirent[];
    try {
      children = listVerified(entry.path, start.path, options.cache);
      directoriesRead++;
    } catch (error) {
      if (ToolError.isInstance(error)) throw error;
      unreadable++;
      children = [];
    }
    options.enter?.(entry, children);
    stack.push({ entry, path: entry.path, relative: relativePath, depth: frame.depth + 1, entries: children, next: 0 });
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  return { complete, directoriesRead, unreadable };
}
