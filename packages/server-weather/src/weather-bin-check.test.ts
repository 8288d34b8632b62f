import { checkBin } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;

it('passes the checks every bin passes', async () => {
  expect(await checkBin({ bin: [bin] })).toEqual([]);
}, 120_000);
