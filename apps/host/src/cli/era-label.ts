import type { UpstreamIdentity } from '../upstream/upstream-session.ts';

/** How a server was spoken to, for people: its era and protocol revision, as in `legacy era 2025-11-25`. */
export function eraOf(identity: UpstreamIdentity): string {
  return `${identity.era} era ${identity.protocolVersion}`;
}
