import { ToolError } from '../errors/tool-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { ClientCapabilities, Root, SamplingResult } from '../protocol/mcp-types.ts';
import type { ElicitOutcome } from './call-context.ts';

/**
 * What a client's answers to the server's questions mean, the same in both
 * eras: a 2025 session receives them as responses to its own requests, a
 * 2026 request as `inputResponses` on its retry.
 */

/** Whether the client can show a form: an empty `elicitation` object predates modes and means form. */
export function canElicitForm(capabilities: ClientCapabilities, protocolVersion: string): boolean {
  const elicitation = capabilities.elicitation;
  if (!isPlainObject(elicitation) || protocolVersion < '2025-06-18') return false;
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

export function canSample(capabilities: ClientCapabilities): boolean {
  return isPlainObject(capabilities.sampling);
}

export function canListRoots(capabilities: ClientCapabilities): boolean {
  return isPlainObject(capabilities.roots);
}

export const samplingUnavailable = (): ToolError =>
  new ToolError(
    'This action needs the client to run a model completion (sampling), but the client did not declare sampling. Do the reasoning yourself or use a client that supports sampling.',
  );

/** An `elicitation/create` result as an outcome; anything unexpected is `unavailable`, never a yes. */
export function readElicitAnswer(result: Record<string, unknown>): ElicitOutcome<unknown> {
  const { action, content } = result;
  if (action === 'accept') return { action, content };
  if (action === 'decline' || action === 'cancel') return { action };
  return { action: 'unavailable', reason: 'the client answered the question with an unknown action' };
}

export function readSamplingAnswer(result: Record<string, unknown>): SamplingResult {
  if (typeof result.model !== 'string' || !isPlainObject(result.content) || typeof result.role !== 'string') {
    throw new ToolError('The client answered the sampling request without a role, content and model.');
  }
  return result as SamplingResult;
}

export function readRootsAnswer(result: Record<string, unknown>): Root[] {
  const list = Array.isArray(result.roots) ? result.roots : [];
  return list.filter((root): root is Root => isPlainObject(root) && typeof root.uri === 'string');
}
