import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex.ts';

describe('randomHex', () => {
  it('gives the bytes asked for as hex, new each call, across refills of its pool', () => {
    const seen = new Set<string>();
    // 4,096 bytes a pool: 3,000 calls of 6 bytes refill it four times, and a call may straddle a refill.
    for (let call = 0; call < 3000; call++) {
      const hex = randomHex(6);
      expect(hex).toMatch(/^[0-9a-f]{12}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(3000);
    expect(randomHex(4096)).toHaveLength(8192);
  });

  it('refuses a length it cannot give', () => {
    for (const bytes of [0, -1, 1.5, 4097]) expect(() => randomHex(bytes)).toThrow(RangeError);
  });
});
