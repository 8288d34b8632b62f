import { randomHex } from '@toolshed/mcp-core';

/**
 * A call's id: the time first, so that ids sort as calls started and a new
 * row lands at the end of the audit table's key index (a random key would
 * touch pages all over it on every write), then 48 random bits, so that
 * replicas sharing a store never make the same id. The random part comes
 * from a pool filled ahead (`randomHex`), as `randomUUID` does; taking it
 * from a UUID cost the host more per call than the rest of the id (see the
 * README).
 *
 * @example
 * callId(Date.now()); // 'mi1s0x2bk-3f9a0c1d2e4b'
 */
export function callId(now: number): string {
  return `${now.toString(36).padStart(9, '0')}-${randomHex(6)}`;
}
