import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTelemetryProblems, binTestCases, type OtlpReceiver, startOtlpReceiver } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let receiver: OtlpReceiver;
let directory: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
});

afterAll(async () => {
  await receiver.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed-filesystem with OTEL_* set', () => {
  // A generous cap, not a speed bar: each case starts a Node process that loads the bin from TypeScript source.
  it.each(binTestCases)(
    '%s client over %s: the bin sends its spans',
    async (client, transport) =>
      expect(await binTelemetryProblems({ bin: [bin, directory] }, client, transport, receiver)).toEqual([]),
    60_000,
  );
});
