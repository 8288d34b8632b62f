import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBin } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;

it('toolshed serve passes the checks every bin passes, on its embedded defaults', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-host-bin-check-'));
  try {
    const env = { ...process.env, XDG_STATE_HOME: join(directory, 'state'), HOME: directory };
    expect(await checkBin({ bin: [bin, 'serve'], env })).toEqual([]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}, 180_000);
