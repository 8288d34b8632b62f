import { checkBin } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { createSampleDatabase } from './__fixtures__/sample-database.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

it('passes the checks every bin passes', async () => {
  const sample = createSampleDatabase();
  try {
    expect(await checkBin({ bin: [bin, '--db', sample.path] })).toEqual([]);
  } finally {
    sample.remove();
  }
}, 120_000);
