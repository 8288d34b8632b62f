/**
 * Runs a bin's bundle (one CommonJS file) with a V8 code cache taken after
 * start-up. Node's own compile cache (`module.enableCompileCache`) stores a
 * module's code as it was just after compiling, before it ran, so every start
 * compiles again each function that start-up calls; for a server that is most
 * of the zod, option and tool code it runs before the first `tools/list`.
 * The cache written here is taken once the server has run for a second (or at
 * a normal exit, if sooner), so it holds those functions too, and the next
 * start skips their compilation.
 *
 * The cache sits in Node's compile-cache directory, which this also turns on
 * (see enable-private-compile-cache.ts; one per Node version, architecture
 * and user), follows `NODE_DISABLE_COMPILE_CACHE`, and is named by the
 * bundle's content hash (its first line, written at build). V8 itself refuses
 * a cache made by another V8 or with other flags. A cache file is used only if the
 * user running the bin owns it and no one else can write to it, since code
 * read from it runs as that user.
 */
import type * as FileSystem from 'node:fs';
import { enablePrivateCompileCache, isPrivateToThisUser } from './enable-private-compile-cache.ts';

// Built-ins are taken with getBuiltinModule, not imported: importing node:fs as an ES module also loads every
// part of it that is otherwise loaded on first use (its promises API, watchers, streams), at every start.
const {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = process.getBuiltinModule('node:fs') as typeof FileSystem;
const { createRequire } = process.getBuiltinModule('node:module');
const { basename, dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');
const { constants, Script } = process.getBuiltinModule('node:vm');

/** How long a first run goes before its cache is written: enough to start and answer the first lists. */
const cacheAfterMs = 1000;

/**
 * Caches of other builds of the same bin older than this are removed when a
 * new one is written: an upgrade leaves no garbage behind, and two versions
 * in use side by side (two projects) evict each other at most once a day.
 */
const otherBuildsKeptMs = 24 * 60 * 60 * 1000;

function readCache(file: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    return isPrivateToThisUser(fstatSync(descriptor)) ? readFileSync(descriptor) : undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Writes the cache, and removes other builds' caches of this bin made over a day ago; a failure only costs speed. */
function writeCache(file: string, data: Buffer): void {
  try {
    const directory = dirname(file);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, file);
    const prefix = `${basename(file).split('@')[0]}@`;
    for (const name of readdirSync(directory)) {
      const other = join(directory, name);
      if (name.startsWith(prefix) && other !== file && statSync(other).mtimeMs < Date.now() - otherBuildsKeptMs) {
        rmSync(other, { force: true });
      }
    }
  } catch {
    // A read-only or full disk: the next start compiles as if there were no cache.
  }
}

/** Exit codes of a run that ended normally: end of input, SIGINT, SIGTERM. A failed run ran too little to cache. */
const normalEnds = new Set([0, 130, 143]);

/**
 * Writes the cache when there is none (or V8 refused it): one second after
 * start, or at a normal exit if that comes first. A cache made by a run that
 * did little (`--help`, say) holds few functions; when a later run has
 * compiled a tenth more code than its cache held by that second, it replaces
 * it, so such a cache heals on the next real run.
 */
function keepCacheCurrent(script: InstanceType<typeof Script>, cacheFile: string, used: Buffer | undefined): void {
  let settled = false;
  const refresh = (exitCode?: number) => {
    if (settled) return;
    settled = true;
    if (exitCode !== undefined && (used !== undefined || !normalEnds.has(exitCode))) return;
    const data = script.createCachedData();
    if (used === undefined || data.length > used.length * 1.1) writeCache(cacheFile, data);
  };
  setTimeout(refresh, cacheAfterMs).unref();
  process.once('exit', refresh);
}

/**
 * Runs the CommonJS bundle at `bundle` and returns what it exports as
 * `default` (a bin's run, as a promise).
 */
export function runBundleWithCodeCache(bundle: URL): unknown {
  const path = fileURLToPath(bundle);
  const source = readFileSync(path, 'utf8');
  const cacheDirectory = enablePrivateCompileCache();
  const contentHash = /^\/\/ ([0-9a-f]{16,})\n/.exec(source)?.[1];
  const cacheFile =
    cacheDirectory === undefined || contentHash === undefined
      ? undefined
      : join(cacheDirectory, 'toolshed', `${basename(path)}@${contentHash.slice(0, 16)}.v8cache`);
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  // The same wrapper Node gives a CommonJS module, so the bundle sees the usual five names.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
    ...(cachedData === undefined ? {} : { cachedData }),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cacheFile !== undefined)
    keepCacheCurrent(script, cacheFile, script.cachedDataRejected === true ? undefined : cachedData);
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...parameters: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  return module.exports.default;
}
