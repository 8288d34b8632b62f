/**
 * The wait a Retry-After header asks for, in milliseconds: either seconds
 * (`120`) or an HTTP date. Undefined when absent or unreadable; never negative.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff with full jitter: a random wait up to `base * 2^(attempt - 1)`, capped. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
}
