import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBin } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;

it('passes the checks every bin passes', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-bin-check-'));
  try {
    expect(await checkBin({ bin: [bin, directory] })).toEqual([]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}, 120_000);
