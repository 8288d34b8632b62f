import { createRateLimiter, type RateDecision, type RateLimiter } from '@toolshed/guards';
import type { HostSettings } from '../config/host-config.ts';

/** One server's call budget; `take()` returns why a call is refused, or undefined; `check()` the same without using any. */
export interface CallLimiter {
  check(): string | undefined;
  take(): string | undefined;
}

export function createCallLimiter(server: string, rateLimit: HostSettings['rateLimit']): CallLimiter | undefined {
  const windows = [
    ...(rateLimit?.perMinute === undefined ? [] : [{ limit: rateLimit.perMinute, windowMs: 60_000 }]),
    ...(rateLimit?.perHour === undefined ? [] : [{ limit: rateLimit.perHour, windowMs: 3_600_000 }]),
  ];
  if (windows.length === 0) return undefined;
  const limiter: RateLimiter = createRateLimiter(windows);
  const refusal = (decision: RateDecision): string | undefined => {
    if (decision.allowed) return undefined;
    const seconds = Math.ceil(decision.retryAfterMs / 1000);
    return `${server} allows ${decision.window.limit} calls per ${decision.window.windowMs === 60_000 ? 'minute' : 'hour'}; try again in ${seconds} s.`;
  };
  return {
    check: () => refusal(limiter.check()),
    take: () => refusal(limiter.take()),
  };
}
