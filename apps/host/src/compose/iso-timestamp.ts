/** The last second formatted, and its text up to the milliseconds ('2026-11-28T10:22:55.'). */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `new Date(time).toISOString()` for a whole number of milliseconds, with
 * the text of the current second kept: every call's audit row takes one,
 * and `toISOString` cost the host more a call than the rest of the row's
 * start (see the README).
 *
 * @example
 * isoTimestamp(Date.now()); // '2026-11-28T10:22:55.123Z'
 */
export function isoTimestamp(time: number): string {
  const second = Math.floor(time / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    cachedSecond = second;
  }
  const millisecond = time - second * 1000;
  return `${cachedPrefix}${millisecond < 10 ? '00' : millisecond < 100 ? '0' : ''}${millisecond}Z`;
}
