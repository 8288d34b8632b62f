/**
 * What the benches send in each protocol era. The legacy era opens with
 * `initialize`; the modern era (2026-07-28) has no handshake, so every
 * request carries the same facts in `params._meta`, and over HTTP mirrors
 * them into headers, with no session.
 */
export type Era = 'legacy' | 'modern';

export const eras: readonly Era[] = ['legacy', 'modern'];

export const legacyProtocolVersion: '2025-11-25' = '2025-11-25';
export const modernProtocolVersion: '2026-07-28' = '2026-07-28';

interface ClientInfo {
  readonly name: string;
  readonly version: string;
}

export const eraLabels: Record<Era, string> = {
  legacy: `legacy era (${legacyProtocolVersion}: initialize, then tools/call)`,
  modern: `modern era (${modernProtocolVersion}: stateless, _meta on every request)`,
};

export const initializeParams: {
  readonly protocolVersion: typeof legacyProtocolVersion;
  readonly capabilities: Record<string, never>;
  readonly clientInfo: ClientInfo;
} = {
  protocolVersion: legacyProtocolVersion,
  capabilities: {},
  clientInfo: { name: 'bench', version: '1.0.0' },
};

export const modernMeta: {
  readonly 'io.modelcontextprotocol/protocolVersion': typeof modernProtocolVersion;
  readonly 'io.modelcontextprotocol/clientCapabilities': Record<string, never>;
  readonly 'io.modelcontextprotocol/clientInfo': ClientInfo;
} = {
  'io.modelcontextprotocol/protocolVersion': modernProtocolVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

/** The HTTP headers a 2026-era POST mirrors from its body (no session id in this era). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': modernProtocolVersion, 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

/** Which eras to run: BENCH_ERAS=legacy, BENCH_ERAS=modern, or both (the default). */
export function selectedEras(): Era[] {
  const wanted = (process.env.BENCH_ERAS ?? eras.join(',')).split(',').map((value) => value.trim());
  const unknown = wanted.filter((value) => !eras.includes(value as Era));
  if (unknown.length > 0) throw new Error(`BENCH_ERAS names unknown eras: ${unknown.join(', ')}`);
  return eras.filter((era) => wanted.includes(era));
}
