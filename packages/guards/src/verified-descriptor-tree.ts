import { closeSync, constants, type Dirent, fstatSync, openSync, readdirSync } from 'node:fs';
import { ToolError } from '@toolshed/mcp-core';
import { descriptorRealPath } from './descriptor-grant.ts';
import { descriptorPath } from './opened-file-path.ts';

/**
 * A directory held open by descriptor while a tree is changed under it: its
 * entries are reached by name through the descriptor (`base`, the kernel's
 * link to it, as openat), so a name on the way swapped for a link afterwards
 * cannot redirect what is done inside.
 */
export interface OpenTreeDirectory {
  readonly fd: number;
  /** What names inside are joined to: the descriptor's link, or the real path where the kernel has none. */
  readonly base: string;
  /** The real path it had when it was opened. */
  readonly path: string;
  /** The kernel's word on where it is now. */
  readonly actual: string;
  readonly dev: number;
  readonly mode: number;
}

const openDirectory = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Opens the directory `name` inside `parent` (or, without a parent, the
 * directory at `path`) without following a link at the name. Throws the
 * system error (ELOOP, ENOTDIR) when the name is not a directory now.
 */
export function openTreeDirectory(
  parent: OpenTreeDirectory | undefined,
  name: string,
  path: string,
): OpenTreeDirectory {
  const fd = openSync(parent === undefined ? path : `${parent.base}/${name}`, openDirectory);
  try {
    const actual = descriptorRealPath(fd, path);
    if (actual === undefined) throw new ToolError('A directory was swapped for a link while it was being changed.');
    const { dev, mode } = fstatSync(fd);
    return { fd, base: descriptorPath(fd) ?? path, path, actual, dev, mode };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export function closeTreeDirectory(directory: OpenTreeDirectory): void {
  closeSync(directory.fd);
}

/** The entries of an open directory, read through its descriptor. */
export function listTreeDirectory(directory: OpenTreeDirectory): Dirent[] {
  return readdirSync(directory.base, { withFileTypes: true });
}

/**
 * Yields to the event loop every `sliceMs` of synchronous work, and stops there when `signal` aborts; says
 * whether it yielded, for work that reports progress once a slice. Within a slice it answers `false` at once,
 * not a promise: a walk asks once an entry, and awaiting a settled promise each time costs a trip through the
 * microtask queue.
 */
export function createSliceTimer(signal: AbortSignal | undefined, sliceMs = 10): () => false | Promise<true> {
  let sliceStart = performance.now();
  const yieldNow = async (): Promise<true> => {
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    sliceStart = performance.now();
    return true;
  };
  return () => (performance.now() - sliceStart <= sliceMs ? false : yieldNow());
}
