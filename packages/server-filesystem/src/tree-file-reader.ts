import { fstatSync } from 'node:fs';
import {
  type DirectoryFileRead,
  type GuardedPath,
  openVerifiedDirectory,
  type PathGuard,
  type VerifiedDirectory,
} from '@toolshed/guards';

/** One file met by a walk: its real path, and its directory and name. */
export interface TreeFile {
  readonly path: string;
  readonly relativePath: string;
}

/**
 * Reads the files a depth-first walk met, in the walk's order, each through
 * its directory's verified descriptor: one open and check per directory
 * instead of per file. The open directories are the chain from the start to
 * the current file's directory, so a depth-first order opens each directory
 * once and at most as many stay open as the tree is deep. Where the kernel
 * cannot name descriptors, each file is opened through the path guard.
 */
export interface TreeFileReader {
  /** The file whole, or why not; throws when it cannot be opened (vanished, no permission). */
  read(file: TreeFile, maxBytes: number): DirectoryFileRead | Promise<DirectoryFileRead>;
  /** Closes every directory, each checked once more to be still inside: throws if one moved out. */
  close(): void;
}

export function createTreeFileReader(guard: PathGuard, start: GuardedPath): TreeFileReader {
  const open: { path: string; directory: VerifiedDirectory }[] = [];
  let descriptorsWork = true;

  const directoryOf = (path: string): VerifiedDirectory | undefined => {
    while (open.length > 0) {
      const top = open[open.length - 1] as (typeof open)[number];
      if (path === top.path || path.startsWith(`${top.path}/`)) break;
      open.pop();
      top.directory.close();
    }
    const top = open[open.length - 1];
    if (top?.path === path) return top.directory;
    const directory = openVerifiedDirectory(path, start.path);
    if (directory === undefined) {
      descriptorsWork = false;
      return undefined;
    }
    open.push({ path, directory });
    return directory;
  };

  return {
    read(file, maxBytes) {
      const slash = file.path.lastIndexOf('/');
      const directory = descriptorsWork ? directoryOf(slash === 0 ? '/' : file.path.slice(0, slash)) : undefined;
      if (directory !== undefined) return directory.readFile(file.path.slice(slash + 1), maxBytes);
      return readThroughGuard(
        guard,
        { path: file.path, exists: true, grant: start.grant, requested: file.relativePath },
        maxBytes,
      );
    },
    close() {
      let failure: unknown;
      for (const { directory } of open.splice(0).reverse()) {
        try {
          directory.close();
        } catch (error) {
          failure ??= error;
        }
      }
      if (failure !== undefined) throw failure;
    },
  };
}

/** One file opened and verified on its own: for a single file, and where descriptors cannot be named. */
export async function readThroughGuard(
  guard: PathGuard,
  target: GuardedPath,
  maxBytes: number,
): Promise<DirectoryFileRead> {
  const handle = await guard.openFile(target);
  try {
    const { size } = fstatSync(handle.fd);
    if (size > maxBytes) return { kind: 'too-large', size };
    return { kind: 'text', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}
