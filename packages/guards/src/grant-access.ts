import { ToolError } from '@toolshed/mcp-core';
import type { PathGrant } from './path-grant.ts';

/** A refusal naming the path as the caller wrote it, never a real path or the grants. */
export function accessDenied(requested: string, why: string): ToolError {
  return new ToolError(`Access denied: "${requested}" ${why}.`);
}

/** Throws unless a write may happen under `grant`: a read-only server or grant refuses every write. */
export function checkWritable(readOnly: boolean, grant: PathGrant, requested: string): void {
  if (readOnly) throw accessDenied(requested, 'cannot be changed: this server is read-only');
  if (grant.access !== 'write') throw accessDenied(requested, 'is in a read-only directory');
}
