import { closeSync, constants, type Dirent, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../errors/tool-error.ts';
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

type Frame = { entry: WalkEntry | undefined; path: string; relative: string; depth: number; entries: Dirent[]; next: number };

function typeOf(entry: Dirent): WalkEntry['type'] {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Lists one directory through its descriptor after checking the kernel's word on where it is. */
function listVerified(path: string, root: string): Dirent[] {
  const fd = openSync(path, openDirectory);
  try {
    const opened = openedFilePath(fd);
    if (opened !== undefined && !isWithin(opened, root)) {
      throw new ToolError('A directory was swapped for a link leading outside while it was being read.');
    }
    return readdirSync(descriptorPath(fd) ?? path, { withFileTypes: true });
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
    entries = listVerified(start.path, start.path);
  } catch (error) {
    throw fileSystemToolError(error, start.requested);
  }
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
      path: join(frame.path, dirent.name),
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
      children = listVerified(entry.path, start.path);
      directoriesRead++;
    } catch (error) {
      if (ToolError.isInstance(error)) throw error;
      unreadable++;
      children = [];
    }
    stack.push({ entry, path: entry.path, relative: relativePath, depth: frame.depth + 1, entries: children, next: 0 });
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  return { complete, directoriesRead, unreadable };
}
