import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type DirectoryListingCache, PathGuard } from '@toolshed/guards';
import { type CallContext, type Root, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { DocumentThreads } from './document-text-thread.ts';
import type { FilesystemLimits } from './filesystem-server-options.ts';

/** What every tool of one server shares. */
export interface FilesystemServerContext {
  /** The operator's grants. */
  readonly guard: PathGuard;
  /** Started without directories: the client's roots are the grants, as with the reference server. */
  readonly rootsOnly: boolean;
  readonly limits: FilesystemLimits;
  /** Guards narrowed by a client's roots, per roots list the engine handed out. */
  readonly narrowed: WeakMap<readonly Root[], Promise<PathGuard>>;
  /** Directory listings reused by walks while each directory is unchanged. */
  readonly listings: DirectoryListingCache;
  /** The workers read_document extracts text in, kept warm between documents. */
  readonly documentThreads: DocumentThreads;
}

function rootPaths(roots: readonly Root[]): string[] {
  const paths: string[] = [];
  for (const root of roots) {
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file://')) continue;
    try {
      paths.push(fileURLToPath(root.uri));
    } catch {
      // A malformed or non-local file URI grants nothing.
    }
  }
  return paths;
}

const noDirectory =
  'No directory is allowed: this server was started without directories, and the client offers no local roots. ' +
  'Start it with directories (toolshed-filesystem ~/projects) or add a folder as a root in the client.';

/** Roots that are existing local directories, as grants of their own: for a server started without any. */
function guardFromRoots(paths: readonly string[], readOnly: boolean): PathGuard {
  const existing = paths.filter((path) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  });
  if (existing.length === 0) throw new ToolError(noDirectory);
  return PathGuard.create(existing, { readOnly });
}

/**
 * The guard for this call: the operator's grants, narrowed by the client's
 * roots when it offers some. Roots never widen what the operator granted; a
 * list with no local directory in it (`roots: []`, which several clients
 * send) narrows nothing, as the reference server treats it. A server started
 * without directories takes the client's roots as its grants.
 */
export async function guardForCall(context: FilesystemServerContext, call: CallContext): Promise<PathGuard> {
  let roots: Root[] | undefined;
  if (call.client.capabilities.roots !== undefined) {
    try {
      roots = await call.roots();
    } catch {
      throw new ToolError(
        'The client offers roots but did not answer roots/list; no directory can be used until it does.',
      );
    }
  }
  const paths = roots === undefined ? [] : rootPaths(roots);
  if (roots === undefined || paths.length === 0) {
    if (context.rootsOnly) throw new ToolError(noDirectory);
    return context.guard;
  }
  let narrowed = context.narrowed.get(roots);
  if (narrowed === undefined) {
    narrowed = context.rootsOnly
      ? Promise.resolve().then(() => guardFromRoots(paths, context.guard.readOnly))
      : context.guard.narrow(paths);
    context.narrowed.set(roots, narrowed);
  }
  return narrowed;
}

/**
 * The `path` argument every tool takes. What a path may be (absolute, or
 * relative to an allowed directory) is said once, by list_allowed_directories.
 */
export function pathArgument(): z.ZodString {
  return z.string();
}
