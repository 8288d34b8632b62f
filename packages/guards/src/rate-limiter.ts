import { LocalError } from '@toolshed/mcp-core';

/** At most `limit` uses in any `windowMs` milliseconds. */
export interface RateWindow {
  readonly limit: number;
  readonly windowMs: number;
}

/** Whether a use may go ahead now; when not, which window is full and when it frees up. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly window: RateWindow; readonly retryAfterMs: number };

export interface RateLimiter {
  /** Whether a use would be allowed now, without taking it. */
  check(): RateDecision;
  /** Takes a use when every window has room; takes nothing when one is full. */
  take(): RateDecision;
}

export interface RateLimiterOptions {
  /** The clock, in milliseconds. Default: `performance.now()`, which never runs backwards. */
  now?: () => number;
}

/** The times of the uses still inside one window, oldest first, in a ring. */
class UseLog {
  readonly window: RateWindow;
  readonly #times: Float64Array;
  #start = 0;
  #count = 0;

  constructor(window: RateWindow) {
    this.window = window;
    this.#times = new Float64Array(window.limit);
  }

  forgetBefore(time: number): void {
    while (this.#count > 0 && (this.#times[this.#start] ?? 0) <= time) {
      this.#start = (this.#start + 1) % this.#times.length;
      this.#count -= 1;
    }
  }

  /** Milliseconds until a use frees up, or 0 when there is room now. */
  waitAt(now: number): number {
    this.forgetBefore(now - this.window.windowMs);
    if (this.#count < this.window.limit) return 0;
    return Math.max(1, Math.ceil((this.#times[this.#start] ?? now) + this.window.windowMs - now));
  }

  record(now: number): void {
    this.#times[(this.#start + this.#count) % this.#times.length] = now;
    this.#count += 1;
  }
}

/**
 * A sliding-window rate limiter over one or more windows at once (say 5 a
 * minute and 30 an hour). Each window keeps the times of its last `limit`
 * uses, so a burst at a window's edge cannot double the rate the way fixed
 * buckets allow, and the memory is bounded by the limits. A refusal says
 * which window is full and how long until it has room.
 *
 * @example
 * const sends = createRateLimiter([{ limit: 5, windowMs: 60_000 }, { limit: 30, windowMs: 3_600_000 }]);
 * const decision = sends.take();
 * if (!decision.allowed) throw new ToolError(`Try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`);
 */
export function createRateLimiter(windows: readonly RateWindow[], options: RateLimiterOptions = {}): RateLimiter {
  for (const window of windows) {
    if (!Number.isSafeInteger(window.limit) || window.limit < 1 || !(window.windowMs > 0)) {
      throw new LocalError(
        'config_invalid',
        `A rate limit needs a whole number of uses of at least 1 in a positive time; got ${window.limit} in ${window.windowMs} ms`,
      );
    }
  }
  const now = options.now ?? (() => performance.now());
  const logs = windows.map((window) => new UseLog(window));

  function decide(at: number): RateDecision {
    let refusal: RateDecision = { allowed: true };
    for (const log of logs) {
      const wait = log.waitAt(at);
      // Of the full windows, name the one that frees up last: that is the real wait.
      if (wait > 0 && (refusal.allowed || wait > refusal.retryAfterMs)) {
        refusal = { allowed: false, window: log.window, retryAfterMs: wait };
      }
    }
    return refusal;
  }

  return {
    check: () => decide(now()),
    take() {
      const at = now();
      const decision = decide(at);
      if (decision.allowed) for (const log of logs) log.record(at);
      return decision;
    },
  };
}
