import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImageHarness, imageOf, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { photo } from './__fixtures__/sample-images.ts';

/** A grey square with a `size`-pixel black block at (16, 16), when size is not 0. */
function withBlock(width: number, height: number, size: number): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: '#c0c0c0' } });
  if (size === 0) return base.png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#c0c0c0' } })
    .composite([
      {
        input: { create: { width: size, height: size, channels: 3, background: '#000000' } },
        left: 16,
        top: 16,
      },
    ])
    .png()
    .toBuffer();
}

describe('compare_images', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness();
    const write = (name: string, bytes: Buffer) => writeFileSync(join(h.images, name), bytes);
    write('plain.png', await withBlock(128, 96, 0));
    write('block.png', await withBlock(128, 96, 32));
    write('photo.jpg', await (await photo(160, 120)).jpeg({ quality: 95 }).toBuffer());
    write('photo-half.png', await (await photo(160, 120)).resize(80, 60).png().toBuffer());
    write('wide.png', await withBlock(200, 50, 0));
  });

  afterAll(async () => {
    await h.close();
  });

  it('finds two copies of an image identical', async () => {
    const result = await h.call('compare_images', { a: { path: 'photo.jpg' }, b: { path: 'photo.jpg' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      width: 160,
      height: 120,
      mismatched_pixels: 0,
      mismatch_ratio: 0,
      similarity: 1,
      b_resized: false,
    });
  });

  it('counts the pixels that differ and shows where, without touching either input', async () => {
    const before = [readFileSync(join(h.images, 'plain.png')), readFileSync(join(h.images, 'block.png'))];
    const plainData = before[0]?.toString('base64');
    const result = await h.call('compare_images', { a: { data: plainData }, b: { path: 'block.png' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as { mismatched_pixels: number; similarity: number; diff: { path: string } };
    // The 32×32 block, give or take its edge, which pixelmatch may take for anti-aliasing.
    expect(data.mismatched_pixels).toBeGreaterThan(30 * 30);
    expect(data.mismatched_pixels).toBeLessThanOrEqual(32 * 32);
    expect(data.similarity).toBeCloseTo(1 - data.mismatched_pixels / (128 * 96), 6);
    // The diff is red inside the block and faded grey elsewhere.
    const diff = await sharp(data.diff.path).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...diff.data.subarray((y * 128 + x) * 4, (y * 128 + x) * 4 + 3)];
    expect(at(30, 30)).toEqual([255, 0, 0]);
    expect(at(100, 80)[0]).toBe(at(100, 80)[1]);
    expect(data.diff.path.startsWith(h.out)).toBe(true);
    expect((await imageOf(result)).metadata).toMatchObject({ format: 'png', width: 128, height: 96 });
    expect([readFileSync(join(h.images, 'plain.png')), readFileSync(join(h.images, 'block.png'))]).toEqual(before);
    // The same comparison again leaves the one diff file as it is.
    await h.call('compare_images', { a: { data: plainData }, b: { path: 'block.png' } });
    expect(readdirSync(h.out).filter((name) => name.includes('-vs-block'))).toHaveLength(1);
  });

  it("scales b to a's size when only the size differs, and says so", async () => {
    const result = await h.call('compare_images', { a: { path: 'photo.jpg' }, b: { path: 'photo-half.png' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      b: { width: 80, height: 60 },
      width: 160,
      height: 120,
      b_resized: true,
    });
    // A picture and its half-size copy are much alike, though not pixel for pixel.
    expect((result.structuredContent as { similarity: number }).similarity).toBeGreaterThan(0.5);
  });

  it.each([
    [
      { a: { path: 'photo.jpg' }, b: { path: 'wide.png' } },
      /a is 160×120 and b is 200×50: different shapes cannot be compared/,
    ],
    [{ a: { path: 'photo.jpg' } }, /Invalid input|expected object/i],
    [{ a: { path: 'photo.jpg' }, b: {} }, /Give b as exactly one of path, url or data/],
    [
      { a: { path: 'photo.jpg', data: 'AAAA' }, b: { path: 'photo.jpg' } },
      /Give a as exactly one of path, url or data; got path and data/,
    ],
    [{ a: { path: '' }, b: { path: 'photo.jpg' } }, /path is empty/],
    [{ a: { path: '../../etc/passwd' }, b: { path: 'photo.jpg' } }, /outside|not allowed|allowed directories/i],
  ])('refuses %o clearly', async (args, message) => {
    const result = await h.call('compare_images', args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });
});
