import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capYoungGeneration, youngGenerationSemiSpaceMiB } from './young-generation-cap.ts';

const workload = new URL('../__fixtures__/young-generation-workload.ts', import.meta.url).pathname;
const mebibyte = 2 ** 20;

/** Runs the capped workload in a fresh Node process (heap sizing is per process) and reads the new space's size. */
function newSpaceAfterWorkload(nodeArgs: readonly string[]) {
  return new Promise<{ newSpaceBytes: number; capped: boolean }>((resolve, reject) => {
    execFile(process.execPath, [...nodeArgs, workload, '--cap'], { encoding: 'utf8' }, (error, stdout, stderr) =>
      error === null ? resolve(JSON.parse(stdout)) : reject(new Error(`${error.message}\n${stderr}`)),
    );
  });
}

describe('the young generation cap of toolshed serve', () => {
  it('holds the new space at the cap under work that grows it to the maximum V8 is allowed', async () => {
    const [chosenByOperator, capped] = await Promise.all([
      newSpaceAfterWorkload(['--max-semi-space-size=64']),
      newSpaceAfterWorkload([]),
    ]);
    // The same work, counted in objects, not in time: where Node was given a size, the host leaves V8 alone and
    // the space grows to it, which shows this work grows it past the cap.
    expect(chosenByOperator).toEqual({ newSpaceBytes: 128 * mebibyte, capped: false });
    expect(capped.capped).toBe(true);
    expect(capped.newSpaceBytes).toBeLessThanOrEqual(2 * youngGenerationSemiSpaceMiB * mebibyte);
  }, 120_000);

  it('leaves V8 alone under any heap-sizing flag, given to node or in NODE_OPTIONS', () => {
    for (const nodeOptions of ['--max-semi-space-size=8', '--max_semi_space_size=8', '--max-heap-size=512']) {
      expect(capYoungGeneration({ semiSpaceMiB: 16, execArgv: [], nodeOptions })).toBeUndefined();
    }
    const execArgv = ['--semi-space-growth-factor=4'];
    expect(capYoungGeneration({ semiSpaceMiB: 16, execArgv, nodeOptions: undefined })).toBeUndefined();
  });
});
