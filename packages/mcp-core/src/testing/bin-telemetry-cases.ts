import { binTelemetryProblems } from './bin-telemetry-problems.ts';
import type { BinUnderTest } from './check-bin.ts';
import { binTestCases } from './connect-test-client.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';

/** The test function of a test runner (vitest's or node:test's `it`), with a time limit per test. */
export type TimedTestRegistrar = (name: string, body: () => Promise<void>, timeout: number) => void;

/**
 * Registers one test per client and transport of `binTestCases`: each starts
 * an OTLP receiver and the bin `target()` names (called when the test runs,
 * so it may use what a `beforeAll` prepared) and fails with the
 * `binTelemetryProblems` it finds.
 *
 * @example
 * describe('my-server with OTEL_* set', () => binTelemetryCases(it, () => ({ bin: [binPath] })));
 */
export function binTelemetryCases(test: TimedTestRegistrar, target: () => BinUnderTest): void {
  // A generous cap, not a speed bar: each case starts a Node process that may load the bin from TypeScript source.
  const timeoutMs = 60_000;
  for (const [client, transport] of binTestCases) {
    test(
      `${client} client over ${transport}: the bin sends its spans`,
      async () => {
        const receiver = await startOtlpReceiver();
        try {
          const problems = await binTelemetryProblems(target(), client, transport, receiver);
          if (problems.length > 0) throw new Error(`the bin's tools/list span: ${problems.join('; ')}`);
        } finally {
          await receiver.close();
        }
      },
      timeoutMs,
    );
  }
}
