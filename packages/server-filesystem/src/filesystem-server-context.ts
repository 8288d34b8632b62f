import { fileURLToPath } from 'node:url';
import type { DirectoryListingCache, PathGuard } from '@toolshed/guards';
import { type CallContext, type Root, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { FilesystemLimits } from './filesystem-server-options.ts';

/** What every tool of one server shares. */
export interface FilesystemServerContext {
  /** The operator's grants. */
  readonly guard: PathGuard;
  readonly limits: FilesystemLimits;
  /** Guards narrowed by a client's roots, per roots list the engine handed out. */
  readonly narrowed: WeakMap<readonly Root[], Promise<PathGuard>>;
  /** Directory listings reused by walks while each directory is unchanged. */
  readonly listings: DirectoryListingCache;
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

/**
 * The guard for this call: the operator's grants, narrowed by the client's
 * roots when it offers them. Roots never widen; an empty or useless list
 * leaves nothing allowed, so a client can revoke access.
 */
export async function guardForCall(context: FilesystemServerContext, call: CallContext): Promise<PathGuard> {
  if (call.client.capabilities.roots === undefined) return context.guard;
  let roots: Root[] | undefined;
  try {
    roots = await call.roots();
  } catch {
    throw new ToolError(
      'The client offers roots but did not answer roots/list; no directory can be used until it does.',
    );
  }
  if (roots === undefined) return context.guard;
  let narrowed = context.narrowed.get(roots);
  if (narrowed === undefined) {
    narrowed = context.guard.narrow(rootPaths(roots));
    context.narrowed.set(roots, narrowed);
  }
  return narrowed;
}

/**
 * The `path` argument every tool takes. What a path may be (absolute, or
 * relative to an allowed directory) is said once, by list_allowed_directories.
 */
export const pathArgument: z.ZodString = z.string();
