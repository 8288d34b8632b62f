import type { Implementation } from '../protocol/mcp-types.ts';
import { MetaKey } from '../protocol/meta-keys.ts';

/** Freshness hints a 2026-era client may cache list and read results by. */
export interface CacheHints {
  /** How long a list may be reused, in milliseconds. Default 0: lists can change at any moment. */
  listTtlMs: number;
  /** How long a resource read may be reused, in milliseconds. Default 0. */
  readTtlMs: number;
}

const listMethods = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/**
 * Completes a result for the 2026 era: `resultType`, the server's identity in
 * `_meta`, and for cacheable results `ttlMs` and `cacheScope`. Lists are the
 * same for every caller (public) unless `variesByCaller` (a tool list without
 * the app-only tools for clients that render no views); a resource's contents
 * may not be.
 */
export function completeModernResult(
  method: string,
  result: Record<string, unknown>,
  serverInfo: Implementation,
  hints: CacheHints,
  variesByCaller = false,
): Record<string, unknown> {
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
  const completed: Record<string, unknown> = {
    ...result,
    resultType: 'complete',
    _meta: { ...meta, [MetaKey.serverInfo]: serverInfo },
  };
  if (listMethods.has(method)) {
    completed.ttlMs = hints.listTtlMs;
    completed.cacheScope = variesByCaller ? 'private' : 'public';
  } else if (method === 'resources/read') {
    completed.ttlMs = hints.readTtlMs;
    completed.cacheScope = 'private';
  } else if (method === 'server/discover') {
    completed.ttlMs = hints.listTtlMs;
    completed.cacheScope = 'public';
  }
  return completed;
}
