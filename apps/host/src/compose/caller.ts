import { type AuthInfo, type CallContext, declaresUi, uiExtension, viewMimeType } from '@toolshed/mcp-core';
import type { Upstream } from '../upstream/upstream.ts';

/** Who made a call, as the audit record names it: the client, and the authenticated subject when there is one. */
export function callerOf(context: CallContext): string {
  const client = context.client.info;
  const who =
    client === undefined
      ? 'unknown client'
      : `${client.name}${client.version === undefined ? '' : `/${client.version}`}`;
  return context.auth?.subject === undefined ? who : `${who} as ${context.auth.subject}`;
}

/** The caller's verified identity, for a server of ours mounted in this process only. */
export function callerIdentity(upstream: Upstream, context: CallContext): { authInfo?: AuthInfo } {
  return upstream.receivesCallerIdentity && context.auth !== undefined ? { authInfo: context.auth } : {};
}

/** Whether the caller's client can put a form question to its user (elicitation in form mode). */
export function canAsk(context: CallContext): boolean {
  const elicitation = (context.client.capabilities as { elicitation?: { form?: unknown; url?: unknown } }).elicitation;
  // An elicitation capability with no mode predates modes and means forms.
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Whether the caller answers questions by retrying its request (the 2026 era) rather than in the middle of it. */
export function asksByRetry(context: CallContext): boolean {
  return context.protocolVersion >= '2026-07-28';
}

/**
 * What the caller of a call can answer through the host, as a modern
 * upstream is told on that call's request (it declares capabilities per
 * request), so that it asks only what will reach someone.
 */
export function callerCapabilities(context: CallContext): Record<string, unknown> {
  const caller = context.client.capabilities as { sampling?: unknown; roots?: unknown };
  // Forms are all the host passes on.
  return {
    ...(canAsk(context) ? { elicitation: { form: {} } } : {}),
    ...(caller.sampling === undefined ? {} : { sampling: {} }),
    ...(caller.roots === undefined ? {} : { roots: {} }),
    // A caller that renders views may call the tools only views may call; the upstream checks it as the host did.
    ...(declaresUi(context.client.capabilities)
      ? { extensions: { [uiExtension]: { mimeTypes: [viewMimeType] } } }
      : {}),
  };
}
