/**
 * The benches time each server in several short rounds taken in turn rather
 * than one long stretch, so that a burst of other work on the machine falls
 * on every server alike; a server's rate is the median of its rounds.
 */
export interface RoundSummary {
  callsPerSecond: number;
  p50: number;
  p99: number;
}

export class RoundRecorder {
  readonly #rates: number[] = [];
  readonly #latencies: number[] = [];

  /** One round: how many calls finished in how many seconds, and how long each took (ms). */
  add(calls: number, seconds: number, latencies: readonly number[]): void {
    this.#rates.push(calls / seconds);
    for (const latency of latencies) this.#latencies.push(latency);
  }

  summary(): RoundSummary {
    const rates = [...this.#rates].sort((a, b) => a - b);
    const latencies = [...this.#latencies].sort((a, b) => a - b);
    const at = (sorted: number[], quantile: number): number =>
      sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? Number.NaN;
    return { callsPerSecond: at(rates, 0.5), p50: at(latencies, 0.5), p99: at(latencies, 0.99) };
  }
}
