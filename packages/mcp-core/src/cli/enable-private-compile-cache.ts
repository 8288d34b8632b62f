/**
 * Turns on Node's compile cache only in a directory no other user can write
 * to. Node's default is `node-compile-cache` in the system's temporary
 * directory, which anyone can create first, and Node reads the code caches it
 * finds there without asking who wrote them: a local user who made that
 * directory could have a bin run code of their choosing. So the directory
 * (`NODE_COMPILE_CACHE`, else the default) is created here, private, when it
 * does not exist, and the cache stays off when it exists but belongs to
 * someone else or others can write to it.
 */
import type * as FileSystem from 'node:fs';

// Taken with getBuiltinModule: importing node:fs as an ES module loads all of it at every start.
const { lstatSync, mkdirSync } = process.getBuiltinModule('node:fs') as typeof FileSystem;
const { enableCompileCache, getCompileCacheDir } = process.getBuiltinModule('node:module');
const { tmpdir } = process.getBuiltinModule('node:os');
const { join } = process.getBuiltinModule('node:path');

/** Whether a file or directory belongs to the user running this process and no one else can write to it. */
export function isPrivateToThisUser(stats: FileSystem.Stats): boolean {
  if (process.getuid === undefined) return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

function privateDirectory(path: string): boolean {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch {
    // It exists (checked below), or cannot be made (then lstat fails too).
  }
  try {
    const stats = lstatSync(path);
    return stats.isDirectory() && isPrivateToThisUser(stats);
  } catch {
    return false;
  }
}

/**
 * Enables Node's compile cache in a private directory and returns the
 * directory Node uses for this Node version (undefined when it stays off).
 */
export function enablePrivateCompileCache(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || enableCompileCache === undefined) return undefined;
  const base = process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache');
  if (!privateDirectory(base)) return undefined;
  enableCompileCache(base);
  return getCompileCacheDir?.();
}
