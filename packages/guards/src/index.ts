/**
 * The safety pieces a Toolshed server needs when it touches files, fetches a
 * URL a model supplied, or limits how often something happens: a path guard
 * with read-only and read-write grants, an outbound URL guard with one capped
 * fetcher, and a sliding-window rate limiter.
 *
 * @module
 */
export { fileSystemToolError } from './file-system-error.ts';
export type { AppendOutcome } from './guarded-append.ts';
export type { CopyOptions, CopySummary } from './guarded-copy.ts';
export { createGuardedLookup, type GuardedLookupOptions, type LookupFunction } from './guarded-lookup.ts';
export type { RemoveOptions, RemoveSummary } from './guarded-remove.ts';
export { classifyAddress } from './ip-address-ranges.ts';
export {
  createOutboundFetcher,
  type OutboundFetcher,
  type OutboundFetchOptions,
  type OutboundProxy,
  type OutboundRequestOptions,
  type OutboundResponse,
  type OutboundTrust,
} from './outbound-fetch.ts';
export { type OutboundFailure, OutboundFetchError } from './outbound-fetch-error.ts';
export { checkOutboundUrl, type OutboundUrlOptions } from './outbound-url.ts';
export type { PathAccess, PathGrant } from './path-grant.ts';
export { type GuardedPath, PathGuard, type PathGuardOptions, type ResolveOptions } from './path-guard.ts';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimiterOptions,
  type RateWindow,
} from './rate-limiter.ts';
export {
  createUntrustedTextFence,
  neutraliseUntrustedText,
  type UntrustedTextFence,
  untrustedLine,
} from './untrusted-text-fence.ts';
export { type DirectoryFileRead, openVerifiedDirectory, type VerifiedDirectory } from './verified-directory.ts';
export {
  DirectoryListingCache,
  type WalkEntry,
  type WalkOptions,
  type WalkSummary,
  walkDirectory,
} from './walk-directory.ts';
