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
function readRules(directory: string, root: string, names: readonly string[]): Ignore | undefined {
  let rules: Ignore | undefined;
  const add = (text: string | undefined) => {
    if (text !== undefined) rules = (rules ?? ignore({ ignorecase: false })).add(text);
  };
  let verified: ReturnType<typeof openVerifiedDirectory>;
  try {
    verified = openVerifiedDirectory(directory, root);
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    return undefined;
  }
  if (verified === undefined) {
    for (const name of names) add(readWithoutDescriptors(`${directory}/${name}`));
    return rules;
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
  return rules;
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
    const rules = readRules(directory, start.grant.path, ignoreFileNames);
    const relative = (path: string) => (path === '' ? fromThere : `${fromThere}/${path}`);
    if (rules !== undefined) found.push({ scope: '', relative, rules });
    if (entryExists(`${directory}/.git`)) break;
  }
  return found;
}

/** The verdict of the nearest rules that speak about a path; nearer ignore files override farther ones, as in git. */
function decide(stack: readonly DirectoryRules[], relativePath: string, isDirectory: boolean): boolean {
  for (let index = stack.length - 1; index >= 0; index--) {
    const { relative, rules } = stack[index] as DirectoryRules;
    const path = relative(relativePath);
    const verdict = rules.test(isDirectory ? `${path}/` : path);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
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
  const stack: DirectoryRules[] = ancestors.length > 0 && decide(ancestors, '', true) ? [] : ancestors;
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
      const rules = names.length === 0 ? undefined : readRules(directory.path, start.path, names);
      if (rules !== undefined) stack.push({ scope, relative: (path) => path.slice(scope.length), rules });
    },
    ignores(entry) {
      const isDirectory = entry.type === 'directory';
      if (isDirectory && entry.name.startsWith('.')) return true;
      if (stack.length === 0) return false;
      leaveUntil(entry.relativePath);
      return decide(stack, entry.relativePath, isDirectory);
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
