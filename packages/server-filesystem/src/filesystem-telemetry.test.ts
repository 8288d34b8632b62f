import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTelemetryCases } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed-filesystem with OTEL_* set', () => {
  binTelemetryCases(it, () => ({ bin: [bin, directory] }));
});
