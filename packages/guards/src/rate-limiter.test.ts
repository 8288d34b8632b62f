import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';

function clock(start = 1_000) {
  let time = start;
  return {
    now: () => time,
    advance(milliseconds: number) {
      time += milliseconds;
    },
  };
}

describe('createRateLimiter', () => {
  it('allows up to the limit in a window, then says how long until a use frees up', () => {
    const time = clock();
    const limiter = createRateLimiter([{ limit: 3, windowMs: 60_000 }], time);
    expect(limiter.take().allowed).toBe(true);
    time.advance(5_000);
    expect([limiter.take(), limiter.take()].every((decision) => decision.allowed)).toBe(true);
    time.advance(5_000);
    expect(limiter.take()).toEqual({ allowed: false, window: { limit: 3, windowMs: 60_000 }, retryAfterMs: 50_000 });
    time.advance(49_999);
    expect(limiter.take().allowed).toBe(false);
    time.advance(1);
    expect(limiter.take().allowed).toBe(true);
    expect(limiter.take().allowed).toBe(false);
  });

  it('slides: a burst at the end of one minute and the start of the next is still one limit', () => {
    const time = clock();
    const limiter = createRateLimiter([{ limit: 5, windowMs: 60_000 }], time);
    time.advance(59_000);
    for (let use = 0; use < 5; use += 1) expect(limiter.take().allowed).toBe(true);
    time.advance(2_000);
    expect(limiter.take().allowed).toBe(false);
  });

  it('refusals take nothing, and check never takes', () => {
    const time = clock();
    const limiter = createRateLimiter([{ limit: 1, windowMs: 1_000 }], time);
    expect(limiter.check().allowed).toBe(true);
    expect(limiter.check().allowed).toBe(true);
    limiter.take();
    for (let attempt = 0; attempt < 100; attempt += 1) limiter.take();
    time.advance(1_000);
    expect(limiter.take().allowed).toBe(true);
  });

  it('holds several windows at once and names the one that frees up last', () => {
    const time = clock();
    const limiter = createRateLimiter(
      [
        { limit: 2, windowMs: 60_000 },
        { limit: 3, windowMs: 3_600_000 },
      ],
      time,
    );
    limiter.take();
    limiter.take();
    expect(limiter.take()).toMatchObject({ allowed: false, window: { limit: 2 }, retryAfterMs: 60_000 });
    time.advance(60_000);
    expect(limiter.take().allowed).toBe(true);
    time.advance(60_000);
    const refused = limiter.take();
    expect(refused).toMatchObject({ allowed: false, window: { limit: 3, windowMs: 3_600_000 } });
    expect(refused.allowed === false && refused.retryAfterMs).toBe(3_600_000 - 120_000);
  });

  it('refuses limits that are not whole numbers of at least one', () => {
    for (const window of [
      { limit: 0, windowMs: 1_000 },
      { limit: 1.5, windowMs: 1_000 },
      { limit: 1, windowMs: 0 },
      { limit: Number.NaN, windowMs: 1_000 },
    ]) {
      expect(() => createRateLimiter([window])).toThrow(/whole number of uses/);
    }
  });
});
