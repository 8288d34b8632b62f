import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DnsServer, startDnsServer } from '@toolshed/guards/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImageHarness, oneStep, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { type ImageWebServer, startImageWebServer } from './__fixtures__/image-web-server.ts';
import { photo } from './__fixtures__/sample-images.ts';

describe('time and concurrency limits', () => {
  let h: ImageHarness;
  let web: ImageWebServer;
  let dns: DnsServer;

  beforeAll(async () => {
    web = await startImageWebServer(await (await photo(8, 8)).png().toBuffer());
    dns = await startDnsServer({ 'images.test': { a: ['127.0.0.1'] } });
    h = await startImageHarness(({ images }) => ({
      directories: [images],
      allowUrls: true,
      dnsServers: [dns.server],
      trustedHosts: ['images.test'],
      // The download's own limit is far beyond the call's, so only the call's time limit can stop the work.
      limits: { maxConcurrent: 1, maxQueued: 1, timeoutMs: 1000, urlTimeoutMs: 600_000 },
    }));
    writeFileSync(join(h.images, 'large.jpg'), await (await photo(3000, 3000)).jpeg().toBuffer());
    writeFileSync(join(h.images, 'small.png'), await (await photo(64, 64)).png().toBuffer());
  });

  afterAll(async () => {
    await h.close();
    await web.close();
    await dns.close();
  });

  // Work that cannot finish on any machine: an image whose server never answers.
  const endless = () => ({ url: `http://images.test:${web.port}/slow`, blur: 1 });
  const quick = { path: 'small.png', width: 32 };

  it('stops a call at the time limit, with a clear error, and keeps serving', async () => {
    const result = await h.call('process_image', oneStep('adjust', endless()));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/took longer than 1000 ms, the limit for one call/);
    const after = await h.call('process_image', oneStep('resize', quick));
    expect(after.isError, textOf(after)).toBeFalsy();
  });

  it('runs one image at a time, queues one, and refuses the rest as busy', async () => {
    // Its own server: the same limits but no tight deadline, so a slow machine cannot turn a wait into a timeout.
    const roomy = await startImageHarness(() => ({
      directories: [h.images],
      limits: { maxConcurrent: 1, maxQueued: 1 },
    }));
    const results = await Promise.all(
      [1, 2, 3].map(() => roomy.call('process_image', oneStep('adjust', { path: 'large.jpg', blur: 5 }))),
    ).finally(() => roomy.close());
    const busy = results.filter((result) => /The image server is busy/.test(textOf(result)));
    expect(busy).toHaveLength(1);
    expect(busy[0]?.isError).toBe(true);
    expect(textOf(busy[0] ?? { content: [] })).toMatch(/1 images are being processed and 1 calls are waiting/);
    expect(results.filter((result) => result.isError !== true)).toHaveLength(2);
  });

  it('stops waiting when the caller cancels, and the server goes on', async () => {
    const controller = new AbortController();
    const pending = h.call('process_image', oneStep('adjust', endless()), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow(/abort/i);
    const after = await h.call('process_image', oneStep('resize', quick));
    expect(after.isError, textOf(after)).toBeFalsy();
  });
});
