import { expect, it } from 'vitest';
import * as api from './index.ts';
import * as testing from './testing.ts';

it('pins the public API: adding to it is a decision', () => {
  expect(Object.keys(api).sort()).toEqual([
    'DirectoryListingCache',
    'OutboundFetchError',
    'PathGuard',
    'checkOutboundUrl',
    'classifyAddress',
    'createGuardedLookup',
    'createOutboundFetcher',
    'createRateLimiter',
    'createUntrustedTextFence',
    'fileSystemToolError',
    'neutraliseUntrustedText',
    'openVerifiedDirectory',
    'untrustedLine',
    'walkDirectory',
  ]);
  expect(Object.keys(testing).sort()).toEqual(['startDnsServer']);
});
