import { closeSync, constants, type Dirent, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { type GuardedPath, openVerifiedDirectory, type WalkEntry } from '@toolshed/guards';
import { ToolError } from '@toolshed/mcp-core';
import ignore, { type Ignore } from 'ignore';
import * as z from 'zod';

/**
 * What a walk leaves out by default, as git and ripgrep do: what `.gitignore`
 * and `.ignore` files exclude, and dot-directories such as `.git`.
 */
export interface WalkIgnoreFilter {
  /** Takes up the ignore files of a directory the walk lists, before its entries are visited. */
  enter(directory: { readonly path: string; readonly relativePath: string }, entries: readonly Dirent[]): void;
  /** Whether the walk leaves this entry out (and, for a directory, everything below it). */
  ignores(entry: WalkEntry): boolean;
}

// `.ignore` after `.gitignore`: where both speak, its rules win, as in ripgrep.
const ignoreFileNames = ['.gitignore', '.ignore'];
// Rules past this size are not read: no real ignore file comes near it.
const maxIgnoreFileBytes = 1024 * 1024;
const openForReading = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The rules of one directory's ignore files, and how a walk's relative path reads from that directory. */
interface DirectoryRules {
  /** The directory's path from the walk's start, with a trailing `/`; '' for the start and above it. */
  readonly scope: string;
  /** Turns a path below `scope` into one relative to the rules' directory. */
  readonly relative: (relativePath: string) => string;
  readonly rules: Ignore;
  /**
   * Verdicts by name (`name/` for a directory), when every pattern is one without a slash: git matches those
   * against the name alone, so names that recur (index.ts, package.json) are decided once a walk.
   */
  readonly byName: Map<string, Verdict> | undefined;
}

type Verdict = 'ignored' | 'unignored' | undefined;

/**
 * Whether every pattern of an ignore file has no slash but a trailing one: `*.log`, `node_modules/`, `!keep.log`.
 * A slash anywhere else (`/build`, `src/gen`, `docs/**`) ties a pattern to the path, not the name.
 */
function namePatternsOnly(text: string): boolean {
  for (const line of text.split('\n')) {
    const pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#')) continue;
    const body = (pattern.startsWith('!') ? pattern.slice(1) : pattern).replace(/\/$/, '');
    if (body.includes('/')) return false;
  }
  return true;
}

/** A regular file's text, never through a link; `undefined` when it is missing, not a file or too large. */
function readWithoutDescriptors(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, openForReading);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxIgnoreFileBytes) return undefined;
    const size = stats.size;
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The rules of the ignore files `names` in `directory`, read inside it as verified under `root`. */
function readRules(
  directory: string,
  root: string,
  names: readonly string[],
): { rules: Ignore; namesOnly: boolean } | undefined {
  let rules: Ignore | undefined;
  let namesOnly = true;
  const add = (text: string | undefined) => {
    if (text === undefined) return;
    rules = (rules ?? ignore({ ignorecase: false })).add(text);
    namesOnly &&= namePatternsOnly(text);
  };
  let verified: ReturnType<typeof openVerifiedDirectory>;
  try {
    verified = openVerifiedDirectory(directory, root);
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    return undefined;
  }
  const found = () => (rules === undefined ? undefined : { rules, namesOnly });
  if (verified === undefined) {
    for (const name of names) add(readWithoutDescriptors(`${directory}/${name}`));
    return found();
  }
  try {
    for (const name of names) {
      try {
        const read = verified.readFile(name, maxIgnoreFileBytes);
        if (read.kind === 'text') add(read.bytes.toString('utf8'));
      } catch {
        // Missing or unreadable: no rules from it.
      }
    }
  } finally {
    verified.close();
  }
  return found();
}

function directoryRules(
  scope: string,
  relative: (relativePath: string) => string,
  read: { rules: Ignore; namesOnly: boolean },
): DirectoryRules {
  return { scope, relative, rules: read.rules, byName: read.namesOnly ? new Map() : undefined };
}

function entryExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * The ignore files above the walk's start that speak for it: from the start's
 * parent up to the repository's root (the first directory holding `.git`) or
 * the grant's root, whichever comes first; nothing above the grant is read.
 * Nearest first.
 */
function ancestorRules(start: GuardedPath): DirectoryRules[] {
  const found: DirectoryRules[] = [];
  if (entryExists(`${start.path}/.git`)) return found;
  let directory = start.path;
  while (directory !== start.grant.path && directory.startsWith(`${start.grant.path}/`)) {
    directory = dirname(directory);
    const fromThere = start.path.slice(directory.length + 1);
    const read = readRules(directory, start.grant.path, ignoreFileNames);
    const relative = (path: string) => (path === '' ? fromThere : `${fromThere}/${path}`);
    if (read !== undefined) found.push(directoryRules('', relative, read));
    if (entryExists(`${directory}/.git`)) break;
  }
  return found;
}

function verdictOf(rules: Ignore, path: string): Verdict {
  const { ignored, unignored } = rules.test(path);
  return ignored ? 'ignored' : unignored ? 'unignored' : undefined;
}

/**
 * The verdict of the nearest rules that speak about an entry; nearer ignore files override farther ones, as in
 * git. Only the entry itself is tested: the walk never enters a directory that was left out.
 */
function decide(stack: readonly DirectoryRules[], relativePath: string, name: string, isDirectory: boolean): boolean {
  const suffix = isDirectory ? '/' : '';
  for (let index = stack.length - 1; index >= 0; index--) {
    const { relative, rules, byName } = stack[index] as DirectoryRules;
    let verdict: Verdict;
    if (byName === undefined) {
      verdict = verdictOf(rules, `${relative(relativePath)}${suffix}`);
    } else {
      const key = `${name}${suffix}`;
      verdict = byName.get(key);
      if (verdict === undefined && !byName.has(key)) {
        verdict = verdictOf(rules, key);
        byName.set(key, verdict);
      }
    }
    if (verdict === 'ignored') return true;
    if (verdict === 'unignored') return false;
  }
  return false;
}

/**
 * A filter for one walk from `start`. A path the caller names is walked even
 * when ignored: rules from above the start that would leave the start out are
 * not applied below it.
 */
export function createWalkIgnoreFilter(start: GuardedPath): WalkIgnoreFilter {
  // Bottom: the farthest ancestor; top: the deepest directory of the walk with rules of its own.
  const ancestors = ancestorRules(start).reverse();
  const startName = start.path.slice(start.path.lastIndexOf('/') + 1);
  const stack: DirectoryRules[] = ancestors.length > 0 && decide(ancestors, '', startName, true) ? [] : ancestors;
  const base = stack.length;

  /** Drops the rules of directories the walk has left. */
  const leaveUntil = (relativePath: string) => {
    while (stack.length > base) {
      const top = stack[stack.length - 1] as DirectoryRules;
      if (relativePath.startsWith(top.scope)) break;
      stack.pop();
    }
  };

  return {
    enter(directory, entries) {
      const scope = directory.relativePath === '' ? '' : `${directory.relativePath}/`;
      leaveUntil(scope);
      if (!entries.some((entry) => ignoreFileNames.includes(entry.name))) return;
      const names = ignoreFileNames.filter((name) => entries.some((entry) => entry.name === name && entry.isFile()));
      const read = names.length === 0 ? undefined : readRules(directory.path, start.path, names);
      if (read !== undefined) stack.push(directoryRules(scope, (path) => path.slice(scope.length), read));
    },
    ignores(entry) {
      const isDirectory = entry.type === 'directory';
      if (isDirectory && entry.name.startsWith('.')) return true;
      if (stack.length === 0) return false;
      leaveUntil(entry.relativePath);
      return decide(stack, entry.relativePath, entry.name, isDirectory);
    },
  };
}

/** The argument of every walking tool that turns the filter off. */
export function includeIgnoredArgument(): z.ZodDefault<z.ZodBoolean> {
  return z.boolean().default(false).describe('Also .gitignore/.ignore matches and dot-dirs');
}

/** The filter for a walk, unless the caller asked for everything; as walk options, for spreading into them. */
export function walkIgnoreOptions(
  start: GuardedPath,
  includeIgnored: boolean,
): { filter: WalkIgnoreFilter | undefined; enter?: WalkIgnoreFilter['enter'] } {
  if (includeIgnored) return { filter: undefined };
  const filter = createWalkIgnoreFilter(start);
  return { filter, enter: filter.enter };
}
