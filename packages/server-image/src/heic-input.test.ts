import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceGate } from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heicOf, heifEncoder } from './__fixtures__/heic-images.ts';
import { type ImageHarness, imageOf, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { photo } from './__fixtures__/sample-images.ts';
import { renderedText } from './__fixtures__/text-images.ts';

describe.runIf(serviceGate(heifEncoder, it))('HEIC input, decoded by libheif-js', () => {
  let h: ImageHarness;
  let png: Buffer;

  beforeAll(async () => {
    h = await startImageHarness();
    png = await (await photo(240, 160)).png().toBuffer();
    writeFileSync(join(h.images, 'photo.png'), png);
    writeFileSync(join(h.images, 'IMG_0001.HEIC'), heicOf(png, 90));
    writeFileSync(join(h.images, 'text.heic'), heicOf(await renderedText(24), 90));
  });

  afterAll(async () => {
    await h.close();
  });

  it('describes a HEIC from its header', async () => {
    const result = await h.call('image_info', { path: 'IMG_0001.HEIC' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ format: 'heic', width: 240, height: 160, processable: true });
  });

  it('processes a HEIC into JPEG by default, its pixels those of the picture encoded', async () => {
    const result = await h.call('process_image', { path: 'IMG_0001.HEIC', operations: [{ op: 'resize', width: 120 }] });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      source: { format: 'heic', width: 240, height: 160 },
      result: { format: 'jpeg', width: 120, height: 80 },
    });
    const { metadata } = await imageOf(result);
    expect(metadata).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    // Against the PNG it was made from: the mean colour of each channel within a few levels.
    const file = (result.structuredContent as { file: { path: string } }).file.path;
    const [decoded, source] = await Promise.all([sharp(file).stats(), sharp(png).resize(120).stats()]);
    for (const [index, channel] of source.channels.slice(0, 3).entries()) {
      expect(Math.abs((decoded.channels[index]?.mean ?? 0) - channel.mean)).toBeLessThan(6);
    }
  });

  it('converts a HEIC to PNG and compares it with its source as nearly the same', async () => {
    const compared = await h.call('compare_images', { a: { path: 'photo.png' }, b: { path: 'IMG_0001.HEIC' } });
    expect(compared.isError, textOf(compared)).toBeFalsy();
    expect(compared.structuredContent).toMatchObject({ b: { format: 'heic' }, b_resized: false });
    expect((compared.structuredContent as { similarity: number }).similarity).toBeGreaterThan(0.9);
  });

  it('reads the text in a HEIC', async () => {
    const result = await h.call('extract_text', { path: 'text.heic' });
    expect((result.structuredContent as { text: string }).text).toMatch(/The quick brown fox jumps over/);
  });
});
