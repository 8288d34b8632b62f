/** The 2025-era revisions served through `initialize`, newest first. */
export const legacyProtocolVersions: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export const latestLegacyProtocolVersion = '2025-11-25';

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
