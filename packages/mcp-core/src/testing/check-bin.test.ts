import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { checkBin } from './check-bin.ts';

const directory = mkdtempSync(join(tmpdir(), 'check-bin-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('names every check a careless bin fails', async () => {
  const script = join(directory, 'careless.mjs');
  writeFileSync(script, "console.log('starting up'); throw new Error('boom');\n");
  const problems = await checkBin({ bin: [script] });
  expect(problems).toEqual(
    expect.arrayContaining([
      '--help exited 1',
      '--help does not list --http',
      'an unknown flag exited 1, not 2',
      'an unknown flag printed a stack trace',
      'stdout carried something other than JSON-RPC: "starting up"',
      'server/discover was not answered with a result',
    ]),
  );
});
