import { type Implementation, MetaKey } from '@toolshed/mcp-core';

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
      [MetaKey.protocolVersion]: envelope.protocolVersion,
      [MetaKey.clientInfo]: envelope.clientInfo,
      [MetaKey.clientCapabilities]: envelope.clientCapabilities,
    },
  };
}
