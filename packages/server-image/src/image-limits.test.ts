import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImageHarness, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { photo } from './__fixtures__/sample-images.ts';

describe('time and concurrency limits', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness(({ images }) => ({
      directories: [images],
      limits: { maxConcurrent: 1, maxQueued: 1, timeoutMs: 1000 },
    }));
    writeFileSync(join(h.images, 'large.jpg'), await (await photo(3000, 3000)).jpeg().toBuffer());
    writeFileSync(join(h.images, 'small.png'), await (await photo(64, 64)).png().toBuffer());
  });

  afterAll(async () => {
    await h.close();
  });

  const slow = { path: 'large.jpg', blur: 100 };
  const quick = { path: 'small.png', width: 32 };

  it('stops a call at the time limit, with a clear error, and keeps serving', async () => {
    const started = Date.now();
    const result = await h.call('adjust_image', slow);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/took longer than 1000 ms, the limit for one call/);
    expect(Date.now() - started).toBeLessThan(1500);
    const after = await h.call('resize_image', quick);
    expect(after.isError, textOf(after)).toBeFalsy();
  });

  it('runs one image at a time, queues one, and refuses the rest as busy', async () => {
    // Its own server: the same limits but no tight deadline, so a slow machine cannot turn a wait into a timeout.
    const roomy = await startImageHarness(() => ({
      directories: [h.images],
      limits: { maxConcurrent: 1, maxQueued: 1 },
    }));
    const results = await Promise.all(
      [1, 2, 3].map(() => roomy.call('adjust_image', { path: 'large.jpg', blur: 5 })),
    ).finally(() => roomy.close());
    const busy = results.filter((result) => /The image server is busy/.test(textOf(result)));
    expect(busy).toHaveLength(1);
    expect(busy[0]?.isError).toBe(true);
    expect(textOf(busy[0] ?? { content: [] })).toMatch(/1 images are being processed and 1 calls are waiting/);
    expect(results.filter((result) => result.isError !== true)).toHaveLength(2);
  });

  it('stops waiting when the caller cancels, and the server goes on', async () => {
    const controller = new AbortController();
    const pending = h.call('adjust_image', { path: 'large.jpg', blur: 5 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow(/abort/i);
    const after = await h.call('resize_image', quick);
    expect(after.isError, textOf(after)).toBeFalsy();
  });
});
