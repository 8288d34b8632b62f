/** Bytes drawn from the system at a time. */
const poolBytes = 4096;
let pool: Buffer | undefined;
let poolOffset = poolBytes;

/**
 * `bytes` random bytes (at most 4,096) as hex, for nonces and the random part
 * of ids. They come from a pool filled 4 KB at a time: asking the system for a
 * few bytes a call costs some ten times what a caller does with them
 * (`crypto.randomUUID` pools its entropy the same way). `node:crypto` is
 * loaded on the first call, to keep it off the start-up path.
 *
 * @example
 * randomHex(8); // '3f9a0c1d2e4b7a65'
 */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > poolBytes) {
    throw new RangeError(`randomHex takes 1 to ${poolBytes} bytes, not ${bytes}`);
  }
  if (pool === undefined || poolOffset + bytes > poolBytes) {
    const { randomFillSync } = process.getBuiltinModule('node:crypto');
    pool = randomFillSync(pool ?? Buffer.allocUnsafe(poolBytes));
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}
