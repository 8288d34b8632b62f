export interface StderrRateLimitOptions {
  /** Lines let through at once before the rate applies. Default 100. */
  burst?: number | undefined;
  /** Lines a second let through after the burst. Default 20. */
  perSecond?: number | undefined;
  /** Milliseconds now; replaceable for tests. */
  now?: (() => number) | undefined;
}

/**
 * Passes a child's stderr lines on at a bounded rate: a burst, then a
 * steady few a second. What is held back is counted and said in one line
 * when lines flow again, a second after holding began, or at `flush`, so a
 * child that floods stderr can neither fill the host's log nor make it
 * buffer output faster than it is read.
 */
export function limitStderrRate(
  write: (line: string) => void,
  options: StderrRateLimitOptions = {},
): { line(text: string): void; flush(): void } {
  const burst = options.burst ?? 100;
  const perSecond = options.perSecond ?? 20;
  const now = options.now ?? (() => performance.now());
  let tokens = burst;
  let last = now();
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held === 0) return;
    write(`(${held} more line${held === 1 ? '' : 's'} of stderr not shown: over ${perSecond} a second)`);
    held = 0;
  };
  return {
    line(text) {
      const time = now();
      tokens = Math.min(burst, tokens + ((time - last) / 1000) * perSecond);
      last = time;
      if (tokens < 1) {
        held += 1;
        // A flood that then stops is still reported, a second later.
        timer ??= setTimeout(flush, 1000).unref();
        return;
      }
      tokens -= 1;
      flush();
      write(text);
    },
    flush,
  };
}
