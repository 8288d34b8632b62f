import { type Implementation, MetaKey, modernProtocolVersions } from '@toolshed/mcp-core';

/** The stateless revisions the host speaks to an upstream, most preferred first. */
export const supportedModernVersions: readonly string[] = modernProtocolVersions;

/** The `_meta` keys the modern era reserves for its per-request and per-result fields. */
export const modernMetaKey: typeof MetaKey = MetaKey;

/** What a modern request says about its sender, in place of the legacy handshake. */
export interface ModernEnvelope {
  protocolVersion: string;
  clientInfo: Implementation;
  /** Declared on each request: a modern server remembers nothing between requests. */
  clientCapabilities: Record<string, unknown>;
}

/** The params with the envelope merged into their `_meta`, next to whatever else it holds (a progress token). */
export function withModernEnvelope(params: Record<string, unknown>, envelope: ModernEnvelope): Record<string, unknown> {
  return {
    ...params,
    _meta: {
      ...(params._meta as Record<string, unknown> | undefined),
      [modernMetaKey.protocolVersion]: envelope.protocolVersion,
      [modernMetaKey.clientInfo]: envelope.clientInfo,
      [modernMetaKey.clientCapabilities]: envelope.clientCapabilities,
    },
  };
}
