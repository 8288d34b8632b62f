import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import readExif from 'exif-reader';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImageHarness, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { sidewaysPhoneJpeg } from './__fixtures__/sample-images.ts';

const fields = {
  date: '2026-05-17T14:30:00+02:00',
  caption: 'Harbour at dusk — Säntis in the back',
  keywords: ['harbour', 'dusk'],
  copyright: '© 2026 Example Press',
  author: 'Ada Example',
};

async function metadataOf(path: string) {
  const metadata = await sharp(path).metadata();
  return {
    exif: metadata.exif === undefined ? undefined : readExif(metadata.exif),
    xmp: metadata.xmp?.toString('utf8') ?? '',
  };
}

describe('process_image metadata step', () => {
  let h: ImageHarness;
  let original: Buffer;

  beforeAll(async () => {
    h = await startImageHarness();
    original = await sidewaysPhoneJpeg(300, 200);
    writeFileSync(join(h.images, 'phone.jpg'), original);
  });

  afterAll(async () => {
    await h.close();
  });

  it('writes the fields to a new file, alone: the location and camera fields are gone, the original untouched', async () => {
    const result = await h.call('process_image', { path: 'phone.jpg', operations: [{ op: 'metadata', ...fields }] });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as { metadata: string; operations: string[]; file: { path: string } };
    expect(data).toMatchObject({ metadata: 'written', operations: ['metadata'] });
    const { exif, xmp } = await metadataOf(data.file.path);
    expect(exif?.Image).toMatchObject({
      Artist: 'Ada Example',
      ImageDescription: 'Harbour at dusk ? S?ntis in the back',
    });
    expect(exif?.Photo?.DateTimeOriginal?.toISOString()).toBe('2026-05-17T14:30:00.000Z');
    expect(exif?.Photo?.OffsetTimeOriginal).toBe('+02:00');
    expect(exif?.Image?.Make).toBeUndefined();
    expect(exif?.GPSInfo).toBeUndefined();
    expect(xmp).toContain('<rdf:li xml:lang="x-default">Harbour at dusk — Säntis in the back</rdf:li>');
    expect(xmp).toContain('<rdf:Bag><rdf:li>harbour</rdf:li><rdf:li>dusk</rdf:li></rdf:Bag>');
    expect(xmp).toContain('<rdf:li xml:lang="x-default">© 2026 Example Press</rdf:li>');
    expect(readFileSync(join(h.images, 'phone.jpg'))).toEqual(original);
    // image_info reads it back as a model would see it.
    const info = await h.call('image_info', { path: data.file.path });
    expect(info.structuredContent).toMatchObject({ has_gps: false, exif: { taken_at: '2026-05-17T14:30:00+02:00' } });
  });

  it('sets the fields over the kept metadata with keep_metadata, GPS kept as asked', async () => {
    const result = await h.call('process_image', {
      path: 'phone.jpg',
      keep_metadata: true,
      operations: [
        { op: 'resize', width: 100 },
        { op: 'metadata', author: 'Ada Example' },
      ],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as { metadata: string; file: { path: string } };
    expect(data.metadata).toBe('written');
    const { exif } = await metadataOf(data.file.path);
    expect(exif?.Image).toMatchObject({ Make: 'Toolshed', Model: 'Test Camera 1', Artist: 'Ada Example' });
    expect(exif?.GPSInfo?.GPSLatitude).toEqual([51, 30, 0]);
  });

  it('removes a field by leaving it out: "" writes nothing for it', async () => {
    const result = await h.call('process_image', {
      path: 'phone.jpg',
      operations: [{ op: 'metadata', caption: '', author: 'Ada Example' }],
    });
    const { exif, xmp } = await metadataOf((result.structuredContent as { file: { path: string } }).file.path);
    expect(exif?.Image?.ImageDescription).toBeUndefined();
    expect(xmp).not.toContain('dc:description');
  });

  it.each([
    [{ keep_metadata: true, operations: [{ op: 'metadata', caption: '' }] }, /works only without keep_metadata/],
    [{ operations: [{ op: 'metadata' }] }, /needs at least one of date, caption, keywords, copyright, author/],
    [
      {
        operations: [
          { op: 'metadata', author: 'a' },
          { op: 'metadata', caption: 'b' },
        ],
      },
      /one metadata step with every field/,
    ],
    [{ operations: [{ op: 'metadata', date: '17/05/2026' }] }, /must be like 2026-05-17T14:30:00\+02:00/],
    [{ operations: [{ op: 'metadata', latitude: 51.5 }] }, /Unrecognized key: "latitude"/],
  ])('refuses %o clearly', async (args, message) => {
    const result = await h.call('process_image', { path: 'phone.jpg', ...args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });
});
