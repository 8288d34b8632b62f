const { randomFillSync } = process.getBuiltinModule('node:crypto');

/** Two hex digits for each byte value. */
const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Random bytes drawn ahead, six a call: one `randomFillSync` every 512 calls. */
const randomPool = new Uint8Array(6 * 512);
let poolOffset = randomPool.length;

/**
 * A call's id: the time first, so that ids sort as calls started and a new
 * row lands at the end of the audit table's key index (a random key would
 * touch pages all over it on every write), then 48 random bits, so that
 * replicas sharing a store never make the same id. The random part comes
 * from a pool filled ahead, as `randomUUID` does; taking it from a UUID cost
 * the host more per call than the rest of the id (see the README).
 *
 * @example
 * callId(Date.now()); // 'mi1s0x2bk-3f9a0c1d2e4b'
 */
export function callId(now: number): string {
  if (poolOffset === randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  let random = '';
  for (const end = poolOffset + 6; poolOffset < end; poolOffset++)
    random += hexOfByte[randomPool[poolOffset] as number];
  return `${now.toString(36).padStart(9, '0')}-${random}`;
}
