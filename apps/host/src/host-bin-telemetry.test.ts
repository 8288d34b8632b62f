import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  binTelemetryProblems,
  binTestCases,
  loadsOpenTelemetry,
  type OtlpReceiver,
  startOtlpReceiver,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let receiver: OtlpReceiver;
let directory: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
  writeFileSync(
    join(directory, 'toolshed.json'),
    JSON.stringify({
      mcpServers: { files: { package: '@toolshed/server-filesystem', options: { directories: [directory] } } },
    }),
  );
});

afterAll(async () => {
  await receiver.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed with OTEL_* set', () => {
  // A generous cap, not a speed bar: each case starts a Node process that loads the bin from TypeScript source.
  it.each(binTestCases)(
    '%s client over %s: the bin sends its spans',
    async (client, transport) =>
      expect(
        await binTelemetryProblems(
          {
            bin: [bin, 'serve', '--config', join(directory, 'toolshed.json')],
            env: { ...process.env, XDG_STATE_HOME: join(directory, 'state') },
          },
          client,
          transport,
          receiver,
        ),
      ).toEqual([]),
    60_000,
  );

  it('loads no @opentelemetry module when no OTEL_* variable is set', async () => {
    const quiet = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const env = { ...quiet, XDG_STATE_HOME: join(directory, 'state') };
    expect(await loadsOpenTelemetry({ bin: [bin, 'serve', '--config', join(directory, 'toolshed.json')], env })).toBe(
      false,
    );
  }, 60_000);
});
