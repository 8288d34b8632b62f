import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTelemetryCases, loadsOpenTelemetry } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
  writeFileSync(
    join(directory, 'toolshed.json'),
    JSON.stringify({
      mcpServers: { files: { package: '@toolshed/server-filesystem', options: { directories: [directory] } } },
    }),
  );
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed with OTEL_* set', () => {
  binTelemetryCases(it, () => ({
    bin: [bin, 'serve', '--config', join(directory, 'toolshed.json')],
    env: { ...process.env, XDG_STATE_HOME: join(directory, 'state') },
  }));

  it('loads no @opentelemetry module when no OTEL_* variable is set', async () => {
    const quiet = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const env = { ...quiet, XDG_STATE_HOME: join(directory, 'state') };
    expect(await loadsOpenTelemetry({ bin: [bin, 'serve', '--config', join(directory, 'toolshed.json')], env })).toBe(
      false,
    );
  }, 60_000);
});
