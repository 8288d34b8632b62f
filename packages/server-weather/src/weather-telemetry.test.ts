import { binTelemetryProblems, binTestCases, type OtlpReceiver, startOtlpReceiver } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(() => receiver.close());

describe('toolshed-weather with OTEL_* set', () => {
  // A generous cap, not a speed bar: each case starts a Node process that loads the bin from TypeScript source.
  it.each(binTestCases)(
    '%s client over %s: the bin sends its spans',
    async (client, transport) =>
      expect(await binTelemetryProblems({ bin: [bin] }, client, transport, receiver)).toEqual([]),
    60_000,
  );
});
