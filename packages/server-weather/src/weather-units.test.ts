import { describe, expect, it } from 'vitest';
import { formatCoordinate, formatPoint } from './coordinates.ts';
import { localDate, localDateTime } from './local-time.ts';
import { ResponseCache } from './response-cache.ts';
import { backoffMs, retryAfterMs } from './retry-after.ts';

describe('coordinates', () => {
  it.each([
    [39.74561, '39.7456'],
    [-104.99, '-104.99'],
    [-105.0, '-105'],
    [39.70000001, '39.7'],
    [-0.00001, '0'],
    [0.00005, '0.0001'],
    [-0.00005, '-0.0001'],
    [179.99996, '180'],
  ])('%d is sent as %s', (value, text) => {
    expect(formatCoordinate(value)).toBe(text);
  });

  it('writes a point as NWS takes it', () => {
    expect(formatPoint(39.745612, -104.999401)).toBe('39.7456,-104.9994');
  });
});

describe('local time', () => {
  it('gives each instant the offset in force then, across a daylight-saving change', () => {
    const beforeChange = Date.UTC(2026, 2, 8, 6, 30) / 1000;
    const afterChange = Date.UTC(2026, 2, 8, 7, 30) / 1000;
    expect(localDateTime(beforeChange, 'America/New_York', -18_000)).toBe('2026-03-08T01:30:00-05:00');
    expect(localDateTime(afterChange, 'America/New_York', -18_000)).toBe('2026-03-08T03:30:00-04:00');
  });

  it('handles zones east of UTC, half-hour offsets and UTC itself', () => {
    const instant = Date.UTC(2026, 10, 22, 12, 0) / 1000;
    expect(localDateTime(instant, 'Asia/Kolkata', 0)).toBe('2026-11-22T17:30:00+05:30');
    expect(localDateTime(instant, 'GMT', 0)).toBe('2026-11-22T12:00:00+00:00');
    expect(localDate(Date.UTC(2026, 10, 21, 23, 0) / 1000, 'Europe/Berlin', 3600)).toBe('2026-11-22');
  });

  it('falls back to the fixed offset for a zone name it does not know', () => {
    const instant = Date.UTC(2026, 10, 22, 12, 0) / 1000;
    expect(localDateTime(instant, 'Mars/Olympus_Mons', -9000)).toBe('2026-11-22T09:30:00-02:30');
  });
});

describe('Retry-After and backoff', () => {
  it('reads seconds and HTTP dates, and ignores the unreadable', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('doubles the ceiling each attempt, with full jitter, up to the cap', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, 250, 1500, () => 1))).toEqual([250, 500, 1000, 1500]);
    expect(backoffMs(3, 250, 1500, () => 0)).toBe(0);
  });
});

describe('ResponseCache', () => {
  it('evicts the least recently used entries to stay within its byte budget', async () => {
    const cache = new ResponseCache({ maxStaleMs: 0, maxBytes: 300 });
    const load = (value: string) => async () => ({ value, bytes: 100 });
    await cache.get('a', 60_000, load('a'));
    await cache.get('b', 60_000, load('b'));
    await cache.get('c', 60_000, load('c'));
    await cache.get('a', 60_000, load('a again'));
    await cache.get('d', 60_000, load('d'));
    expect(cache.size).toEqual({ entries: 3, bytes: 300 });
    expect((await cache.get('a', 60_000, load('a reloaded'))).value).toBe('a');
    expect((await cache.get('b', 60_000, load('b reloaded'))).value).toBe('b reloaded');
  });

  it('does not keep an entry larger than the whole budget', async () => {
    const cache = new ResponseCache({ maxStaleMs: 0, maxBytes: 100 });
    await cache.get('big', 60_000, async () => ({ value: 'x', bytes: 101 }));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('serves stale only within maxStaleMs, then passes the failure on', async () => {
    let now = 0;
    const cache = new ResponseCache({ maxStaleMs: 1000, maxBytes: 1000, now: () => now });
    await cache.get('k', 100, async () => ({ value: 'old', bytes: 1 }));
    const failing = async (): Promise<{ value: string; bytes: number }> => {
      throw new Error('down');
    };
    now = 500;
    expect(await cache.get('k', 100, failing)).toMatchObject({ value: 'old', stale: true, cacheHit: true });
    now = 1200;
    await expect(cache.get('k', 100, failing)).rejects.toThrow('down');
  });
});
