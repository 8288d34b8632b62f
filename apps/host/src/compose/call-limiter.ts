import type { RateTake, RateWindow, StateStore } from '@toolshed/state';
import type { HostSettings } from '../config/host-config.ts';

/**
 * One server's call budget, counted in the state store so that replicas
 * share it: `take()` resolves to why a call is refused, or undefined;
 * `check()` the same without using any.
 */
export interface CallLimiter {
  check(): Promise<string | undefined>;
  take(): Promise<string | undefined>;
}

export function createCallLimiter(
  server: string,
  rateLimit: HostSettings['rateLimit'],
  store: () => StateStore,
  now: () => number = Date.now,
): CallLimiter | undefined {
  const windows: RateWindow[] = [
    ...(rateLimit?.perMinute === undefined ? [] : [{ limit: rateLimit.perMinute, windowMs: 60_000 }]),
    ...(rateLimit?.perHour === undefined ? [] : [{ limit: rateLimit.perHour, windowMs: 3_600_000 }]),
  ];
  if (windows.length === 0) return undefined;
  const key = `server:${server}`;
  const refusal = (decision: RateTake): string | undefined => {
    if (decision.allowed) return undefined;
    const seconds = Math.ceil(decision.retryAfterMs / 1000);
    return `${server} allows ${decision.window.limit} calls per ${decision.window.windowMs === 60_000 ? 'minute' : 'hour'}; try again in ${seconds} s.`;
  };
  return {
    check: async () => refusal(await store().rates.check(key, windows, now())),
    take: async () => refusal(await store().rates.take(key, windows, now())),
  };
}
