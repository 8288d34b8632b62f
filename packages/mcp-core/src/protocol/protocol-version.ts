/** The 2025-era revisions served through `initialize`, newest first. */
export const legacyProtocolVersions: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export const latestLegacyProtocolVersion = '2025-11-25';

/** The stateless revisions, where every request carries its version in `_meta`; newest first. */
export const modernProtocolVersions: readonly string[] = ['2026-07-28'];

export const latestProtocolVersion = '2026-07-28';

/** Every revision this engine speaks, newest first: what `server/discover` and version errors list. */
export const supportedProtocolVersions: readonly string[] = [...modernProtocolVersions, ...legacyProtocolVersions];

export function isModernProtocolVersion(version: unknown): version is string {
  return typeof version === 'string' && modernProtocolVersions.includes(version);
}

/**
 * Picks the version to answer `initialize` with: the client's when we speak it,
 * otherwise our latest, leaving the client to disconnect if it cannot follow.
 */
export function negotiateLegacyVersion(requested: string): string {
  return legacyProtocolVersions.includes(requested) ? requested : latestLegacyProtocolVersion;
}

/** JSON-RPC batches exist only in 2025-03-26; later revisions removed them. */
export function allowsBatches(protocolVersion: string | undefined): boolean {
  return protocolVersion === '2025-03-26';
}
