import * as z from 'zod';
import type { FilesystemLimits } from './filesystem-server-options.ts';

/** The depth and entry arguments of the walking tools, bounded by the operator's caps. */
export function walkLimitArguments(limits: FilesystemLimits): {
  maxDepth: z.ZodOptional<z.ZodNumber>;
  maxEntries: z.ZodOptional<z.ZodNumber>;
} {
  return {
    maxDepth: z.number().int().min(1).max(limits.maxDepth).optional().describe('1 = only its own entries'),
    maxEntries: z.number().int().min(1).max(limits.maxEntries).optional(),
  };
}

/** Why a walk's result was cut, if it was. */
export type WalkCut = 'max_entries' | 'max_depth' | undefined;

/** The cut as result fields: `truncated`, and `truncated_by` when cut. */
export function truncationFields(cut: WalkCut): { truncated: boolean; truncated_by?: 'max_entries' | 'max_depth' } {
  return cut === undefined ? { truncated: false } : { truncated: true, truncated_by: cut };
}
