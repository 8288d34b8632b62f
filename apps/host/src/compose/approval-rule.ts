import type { ToolAnnotations } from '@toolshed/mcp-core';
import type { ApprovalMode, HostSettings } from '../config/host-config.ts';
import { matchesPattern } from './tool-names.ts';

export type ApprovalRequirement =
  | { required: false; because: 'read-only' | 'not destructive' | 'operator waived' }
  | { required: true; because: 'destructive' | 'operator rule' };

/**
 * Whether a call needs a human yes first. Operator rules come first (`skip`
 * waives, `require` demands); otherwise the tool's annotations decide, read
 * as the specification defines them: a tool that does not say it is
 * read-only, nor that it is not destructive, may be destructive — so a
 * foreign tool without annotations is asked about, never waved through.
 */
export function approvalRequirement(
  tool: string,
  annotations: ToolAnnotations | undefined,
  approval: HostSettings['approval'],
): ApprovalRequirement {
  if ((approval?.skip ?? []).some((pattern) => matchesPattern(tool, pattern))) {
    return { required: false, because: 'operator waived' };
  }
  if ((approval?.require ?? []).some((pattern) => matchesPattern(tool, pattern))) {
    return { required: true, because: 'operator rule' };
  }
  if (annotations?.readOnlyHint === true) return { required: false, because: 'read-only' };
  if (annotations?.destructiveHint === false) return { required: false, because: 'not destructive' };
  return { required: true, because: 'destructive' };
}

/** The mode for one tool: the first of the server's `approval.modes` patterns it matches, else the server's, else the host's. */
export function approvalMode(
  tool: string,
  approval: HostSettings['approval'],
  hostDefault: ApprovalMode = 'elicit-or-console',
): ApprovalMode {
  for (const [pattern, mode] of Object.entries(approval?.modes ?? {})) {
    if (matchesPattern(tool, pattern)) return mode;
  }
  return approval?.mode ?? hostDefault;
}
