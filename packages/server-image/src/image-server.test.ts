import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Metadata, type OutputInfo, type Region, type Stats } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ImageHarness,
  imageOf,
  oneStep,
  startImageHarness,
  textOf,
} from './__fixtures__/image-harness.ts';
import { animation, everyFormat, photo, sidewaysPhoneJpeg, transparentPng } from './__fixtures__/sample-images.ts';
import { adjustFields } from './operations/adjust-operation.ts';
import { cropFields } from './operations/crop-operation.ts';
import { resizeFields } from './operations/resize-operation.ts';
import { rotateFields } from './operations/rotate-operation.ts';
import { thumbnailFields } from './operations/thumbnail-operation.ts';
import { watermarkFields } from './operations/watermark-operation.ts';

type Structured = {
  source: { format: string; width: number; height: number; frames: number };
  operations: string[];
  result: { format: string; width: number; height: number; frames: number; bytes?: number };
  preview: { format: string; width: number; height: number; bytes: number; scaled: boolean };
  file?: { path: string; uri: string; bytes: number };
  metadata: string;
  notes?: string[];
};

function structured(result: CallResult): Structured {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Structured;
}

/** What sharp reads back from a written file. */
async function fileMetadata(result: CallResult): Promise<Metadata> {
  const file = structured(result).file;
  if (file === undefined) throw new Error('no file in the result');
  return sharp(readFileSync(file.path), { pages: -1 }).metadata();
}

/** Statistics of one region (sharp's stats() reads the input, not the pipeline, so the region is cut first). */
async function regionStats(path: string, region: Region): Promise<Stats> {
  return sharp(await sharp(readFileSync(path)).extract(region).png().toBuffer()).stats();
}

const formatOf: Record<string, string> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'heif',
  gif: 'gif',
  tiff: 'tiff',
};
const previewMime: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/webp',
  gif: 'image/gif',
  tiff: 'image/png',
};

describe('image server with an output directory', () => {
  let h: ImageHarness;
  let samples: Record<string, Buffer>;

  beforeAll(async () => {
    h = await startImageHarness();
    samples = await everyFormat(800, 600);
    for (const [format, bytes] of Object.entries(samples)) writeFileSync(join(h.images, `photo.${format}`), bytes);
    writeFileSync(join(h.images, 'phone.jpg'), await sidewaysPhoneJpeg());
    writeFileSync(join(h.images, 'alpha.png'), await transparentPng());
    writeFileSync(join(h.images, 'spinner.gif'), await animation(5));
    writeFileSync(join(h.images, 'spinner.webp'), await animation(4, 64, 48, 'webp'));
    writeFileSync(join(h.images, 'big.png'), await (await photo(3000, 2000)).png({ compressionLevel: 1 }).toBuffer());
    writeFileSync(
      join(h.images, 'logo.png'),
      await sharp({ create: { width: 200, height: 100, channels: 4, background: '#ff0000' } })
        .png()
        .toBuffer(),
    );
  });

  afterAll(async () => {
    expect(h.specViolations()).toEqual([]);
    await h.close();
  });

  it('lists its tools, with annotations that say process_image adds files', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['compare_images', 'extract_text', 'image_info', 'process_image']);
    expect(tools.find((tool) => tool.name === 'extract_text')?.annotations?.readOnlyHint).toBe(true);
    const process = tools.find((tool) => tool.name === 'process_image');
    expect(process?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(tools.find((tool) => tool.name === 'image_info')?.annotations?.readOnlyHint).toBe(true);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
  });

  it("names every step's every argument in the line that describes the steps", async () => {
    const { tools } = await h.client.listTools();
    const properties = tools.find((tool) => tool.name === 'process_image')?.inputSchema.properties ?? {};
    const guide = (properties as Record<string, { description?: string }>).operations?.description ?? '';
    const steps: [string, object][] = [
      ['resize', resizeFields()],
      ['crop', cropFields()],
      ['rotate', rotateFields()],
      ['adjust', adjustFields()],
      ['thumbnail', thumbnailFields()],
      ['watermark', { ...watermarkFields(), overlay: true }],
    ];
    for (const [op, fields] of steps) {
      const [, listed = ''] = new RegExp(`\\b${op} \\{([^{}]*(?:\\{[^{}]*\\}[^{}]*)?)\\}`).exec(guide) ?? [];
      for (const field of Object.keys(fields)) expect(listed, `${op} ${field}`).toMatch(new RegExp(`\\b${field}\\b`));
    }
  });

  it('describes a phone photo as displayed, with its camera fields and GPS', async () => {
    const info = structured(await h.call('image_info', { path: 'phone.jpg' })) as unknown as Record<string, unknown>;
    expect(info).toMatchObject({
      format: 'jpeg',
      width: 800,
      height: 1200,
      orientation: 6,
      channels: 3,
      has_alpha: false,
      frames: 1,
      animated: false,
      has_gps: true,
      processable: true,
      exif: { make: 'Toolshed', model: 'Test Camera 1', lens: 'Fixture Lens 24mm', taken_at: '2026-01-02T03:04:05' },
    });
  });

  it.each([
    ['alpha.png', { format: 'png', has_alpha: true, channels: 4, has_gps: false }],
    ['spinner.gif', { format: 'gif', frames: 5, animated: true, width: 64, height: 48 }],
    ['spinner.webp', { format: 'webp', frames: 4, animated: true }],
    ['photo.avif', { format: 'avif', media_type: 'image/avif', width: 800, height: 600 }],
    ['photo.tiff', { format: 'tiff', width: 800, height: 600 }],
  ])('describes %s', async (path, expected) => {
    expect(structured(await h.call('image_info', { path }))).toMatchObject(expected);
  });

  it.each(Object.keys(formatOf))('resizes a %s, keeping its format, and strips metadata', async (format) => {
    const result = await h.call('process_image', oneStep('resize', { path: `photo.${format}`, width: 400 }));
    const data = structured(result);
    expect(data).toMatchObject({
      source: { format, width: 800, height: 600 },
      result: { format, width: 400, height: 300 },
      metadata: 'stripped',
    });
    const preview = await imageOf(result);
    expect(preview.mimeType).toBe(previewMime[format]);
    expect([preview.metadata.width, preview.metadata.height]).toEqual([400, 300]);
    const file = await fileMetadata(result);
    expect(file.format).toBe(formatOf[format]);
    expect([file.width, file.height]).toEqual([400, 300]);
    expect(file.exif).toBeUndefined();
    const link = result.content.find((block) => block.type === 'resource_link');
    expect(link?.uri).toBe(data.file?.uri);
  });

  it.each(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'])('converts a JPEG to %s', async (format) => {
    const result = await h.call('process_image', { path: 'photo.jpeg', format, quality: 70 });
    expect(structured(result).result).toMatchObject({ format, width: 800, height: 600 });
    const file = await fileMetadata(result);
    expect(file.format).toBe(formatOf[format]);
    if (format === 'avif') expect(file.compression).toBe('av1');
    // A noisy photo as PNG or TIFF outgrows the preview budget, which then switches to WebP.
    const preview = await imageOf(result);
    expect([previewMime[format], 'image/webp']).toContain(preview.mimeType);
    expect(preview.bytes.length).toBeLessThanOrEqual(750_000);
  });

  it('applies EXIF orientation and removes EXIF and GPS by default', async () => {
    const result = await h.call('process_image', oneStep('resize', { path: 'phone.jpg', width: 400 }));
    expect(structured(result).result).toMatchObject({ width: 400, height: 600 });
    for (const metadata of [(await imageOf(result)).metadata, await fileMetadata(result)]) {
      expect([metadata.width, metadata.height]).toEqual([400, 600]);
      expect(metadata.exif).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
    }
  });

  it('keeps EXIF, GPS included, when asked, with the orientation reset to upright', async () => {
    const result = await h.call(
      'process_image',
      oneStep('resize', { path: 'phone.jpg', width: 400, keep_metadata: true }),
    );
    expect(structured(result).metadata).toBe('kept');
    const file = await fileMetadata(result);
    expect(file.orientation).toBe(1);
    const info = structured(await h.call('image_info', { path: structured(result).file?.path ?? '' }));
    expect(info).toMatchObject({ has_gps: true, exif: { make: 'Toolshed' } });
  });

  it('fits a large result into the preview budget and writes it in full', async () => {
    const result = await h.call('process_image', { path: 'big.png', format: 'png' });
    const data = structured(result);
    expect(data.result).toMatchObject({ width: 3000, height: 2000 });
    expect(data.preview.scaled).toBe(true);
    expect(data.preview.bytes).toBeLessThanOrEqual(750_000);
    const preview = await imageOf(result);
    expect(Math.max(preview.metadata.width, preview.metadata.height)).toBeLessThanOrEqual(1568);
    expect(preview.bytes.length).toBe(data.preview.bytes);
    expect([(await fileMetadata(result)).width, (await fileMetadata(result)).height]).toEqual([3000, 2000]);
  });

  it('crops an exact region, and refuses one outside the image', async () => {
    const result = await h.call(
      'process_image',
      oneStep('crop', { path: 'photo.png', left: 100, top: 50, width: 300, height: 200 }),
    );
    expect(structured(result).result).toMatchObject({ width: 300, height: 200 });
    const original = await sharp(samples.png).extract({ left: 100, top: 50, width: 300, height: 200 }).raw().toBuffer();
    const cropped = await sharp(readFileSync(structured(result).file?.path ?? ''))
      .raw()
      .toBuffer();
    expect(cropped.equals(original)).toBe(true);
    const outside = await h.call(
      'process_image',
      oneStep('crop', { path: 'photo.png', left: 700, top: 0, width: 300, height: 200 }),
    );
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/reaches outside the 800×600 image/);
  });

  it.each(['attention', 'entropy', 'centre'])('crops by %s to the size asked', async (strategy) => {
    const result = await h.call(
      'process_image',
      oneStep('crop', { path: 'photo.jpeg', width: 300, height: 300, strategy }),
    );
    expect(structured(result).result).toMatchObject({ width: 300, height: 300 });
  });

  it('rotates, mirrors, and grows the canvas for odd angles', async () => {
    expect(
      structured(await h.call('process_image', oneStep('rotate', { path: 'photo.png', angle: 90 }))).result,
    ).toMatchObject({
      width: 600,
      height: 800,
    });
    const odd = structured(
      await h.call('process_image', oneStep('rotate', { path: 'photo.png', angle: 45, format: 'png' })),
    );
    expect(odd.result.width).toBeGreaterThan(980);
    const flipped = await h.call('process_image', oneStep('rotate', { path: 'photo.png', flip: true }));
    const top = await sharp(samples.png).extract({ left: 0, top: 0, width: 800, height: 1 }).raw().toBuffer();
    const bottom = await sharp(readFileSync(structured(flipped).file?.path ?? ''))
      .extract({ left: 0, top: 599, width: 800, height: 1 })
      .raw()
      .toBuffer();
    expect(bottom.equals(top)).toBe(true);
  });

  it('makes a square thumbnail by default, in the format asked', async () => {
    const result = await h.call(
      'process_image',
      oneStep('thumbnail', { path: 'phone.jpg', size: 128, format: 'webp' }),
    );
    expect(structured(result).result).toMatchObject({ format: 'webp', width: 128, height: 128 });
    expect((await imageOf(result)).mimeType).toBe('image/webp');
  });

  it('converts with format alone, no steps', async () => {
    const result = await h.call('process_image', { path: 'photo.png', format: 'webp' });
    expect(structured(result)).toMatchObject({ operations: [], result: { format: 'webp', width: 800, height: 600 } });
  });

  it('stamps a text watermark in the chosen corner only', async () => {
    const plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    writeFileSync(join(h.images, 'black.png'), plain);
    const result = await h.call(
      'process_image',
      oneStep('watermark', {
        path: 'black.png',
        text: 'Toolshed',
        opacity: 1,
        gravity: 'southeast',
      }),
    );
    const path = structured(result).file?.path ?? '';
    const corner = await regionStats(path, { left: 250, top: 200, width: 150, height: 100 });
    const opposite = await regionStats(path, { left: 0, top: 0, width: 150, height: 100 });
    expect(corner.channels[0]?.max).toBeGreaterThan(200);
    expect(opposite.channels[0]?.max).toBe(0);
  });

  it('stamps an overlay image at half opacity', async () => {
    const plain = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    writeFileSync(join(h.images, 'black2.png'), plain);
    const result = await h.call(
      'process_image',
      oneStep('watermark', {
        path: 'black2.png',
        overlay: { path: 'logo.png' },
        gravity: 'centre',
        scale: 0.5,
        opacity: 0.5,
      }),
    );
    const centre = await regionStats(structured(result).file?.path ?? '', {
      left: 190,
      top: 140,
      width: 20,
      height: 20,
    });
    expect(centre.channels[0]?.mean).toBeGreaterThan(100);
    expect(centre.channels[0]?.mean).toBeLessThan(155);
    const both = await h.call(
      'process_image',
      oneStep('watermark', { path: 'black2.png', text: 'x', overlay: { path: 'logo.png' } }),
    );
    expect(textOf(both)).toMatch(/exactly one of text or overlay/);
  });

  it('adjusts: grayscale leaves no colour', async () => {
    const result = await h.call(
      'process_image',
      oneStep('adjust', { path: 'photo.jpeg', grayscale: true, sharpen: 1, format: 'png' }),
    );
    const coloured = (raw: { data: Buffer; info: OutputInfo }) => {
      let count = 0;
      for (let at = 0; at < raw.data.length; at += raw.info.channels) {
        if (raw.data[at] !== raw.data[at + 1] || raw.data[at] !== raw.data[at + 2]) count++;
      }
      return count;
    };
    const path = structured(result).file?.path ?? '';
    const adjusted = await sharp(path).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const original = await sharp(join(h.images, 'photo.jpeg')).raw().toBuffer({ resolveWithObject: true });
    expect(coloured(original)).toBeGreaterThan(100_000);
    expect(coloured(adjusted)).toBe(0);
    const none = await h.call('process_image', oneStep('adjust', { path: 'photo.jpeg' }));
    expect(textOf(none)).toMatch(/at least one of/);
  });

  it('runs a pipeline in order on one decode', async () => {
    const result = await h.call('process_image', {
      path: 'phone.jpg',
      operations: [
        { op: 'crop', left: 0, top: 0, width: 800, height: 800 },
        { op: 'resize', width: 200 },
        { op: 'adjust', grayscale: true },
        { op: 'watermark', text: '©' },
        { op: 'rotate', angle: 90 },
      ],
      format: 'webp',
    });
    const data = structured(result);
    expect(data.operations).toEqual(['crop', 'resize', 'adjust', 'watermark', 'rotate']);
    expect(data.result).toMatchObject({ format: 'webp', width: 200, height: 200 });
    expect((await imageOf(result)).metadata.format).toBe('webp');
  });

  it('keeps animations animated where the format can hold them', async () => {
    const result = await h.call('process_image', oneStep('resize', { path: 'spinner.gif', width: 32 }));
    expect(structured(result).result).toMatchObject({ format: 'gif', width: 32, height: 24, frames: 5 });
    expect((await fileMetadata(result)).pages).toBe(5);
    const webp = await h.call('process_image', { path: 'spinner.gif', format: 'webp' });
    expect((await fileMetadata(webp)).pages).toBe(5);
  });

  it('uses the first frame, and says so, where a step or format cannot animate', async () => {
    const rotated = structured(await h.call('process_image', oneStep('rotate', { path: 'spinner.gif', angle: 90 })));
    expect(rotated.result).toMatchObject({ frames: 1, width: 48, height: 64 });
    expect(rotated.notes?.[0]).toMatch(/first of 5 frames.*rotate works on still images/);
    const png = structured(await h.call('process_image', { path: 'spinner.gif', format: 'png' }));
    expect(png.notes?.[0]).toMatch(/png cannot hold an animation/);
  });

  it('writes to the name asked, leaves a repeat alone, and never replaces other bytes', async () => {
    const first = await h.call(
      'process_image',
      oneStep('resize', { path: 'photo.jpeg', width: 100, output_name: 'small.jpg' }),
    );
    expect(structured(first).file?.path).toBe(join(h.out, 'small.jpg'));
    const again = await h.call(
      'process_image',
      oneStep('resize', { path: 'photo.jpeg', width: 100, output_name: 'small.jpg' }),
    );
    expect(again.isError).toBeFalsy();
    const other = await h.call(
      'process_image',
      oneStep('resize', { path: 'photo.jpeg', width: 120, output_name: 'small.jpg' }),
    );
    expect(textOf(other)).toMatch(/small\.jpg already exists/);
    expect((await sharp(join(h.out, 'small.jpg')).metadata()).width).toBe(100);
    const named = await h.call(
      'process_image',
      oneStep('resize', { path: 'photo.jpeg', width: 100, output_name: 'small.webp' }),
    );
    expect(structured(named).result.format).toBe('webp');
    const disagree = await h.call(
      'process_image',
      oneStep('resize', {
        path: 'photo.jpeg',
        width: 100,
        output_name: 'x.png',
        format: 'jpeg',
      }),
    );
    expect(textOf(disagree)).toMatch(/make them agree/);
    expect(readdirSync(h.out).some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('takes base64 data, with or without a data: URL prefix', async () => {
    const data = samples.png?.toString('base64') ?? '';
    for (const given of [data, `data:image/png;base64,${data}`]) {
      const result = await h.call('process_image', oneStep('thumbnail', { data: given, size: 64 }));
      expect(structured(result).result).toMatchObject({ width: 64, height: 64 });
      expect(structured(result).file?.path).toMatch(/image-thumbnail-[0-9a-f]{10}\.png$/);
    }
  });

  it('reports progress per step', async () => {
    const seen: number[] = [];
    await h.client.callTool(
      {
        name: 'process_image',
        arguments: {
          path: 'photo.jpeg',
          operations: [
            { op: 'resize', width: 100 },
            { op: 'adjust', blur: 1 },
          ],
        },
      },
      undefined,
      { onprogress: (progress) => seen.push(progress.progress) },
    );
    expect(seen).toEqual([1, 2, 3]);
  });

  it('refuses the arguments that cannot work, clearly', async () => {
    const rows: [string, Record<string, unknown>, RegExp][] = [
      ['resize', { path: 'photo.png' }, /needs a width, a height, or both/],
      [
        'resize',
        { path: 'photo.png', width: 100, path2: 1, data: 'AAAA' },
        /exactly one of path, url or data; got path and data/,
      ],
      ['resize', { width: 100 }, /exactly one of path, url or data; none was given/],
      ['resize', { path: 'photo.png', width: 20_000, allow_enlargement: true }, /limited to 16384/],
      [
        'resize',
        { path: 'photo.png', width: 100, lossless: true, format: 'jpeg' },
        /lossless applies to webp and avif/,
      ],
      ['resize', { url: 'https://example.com/a.png', width: 100 }, /does not download images/],
      ['crop', { path: 'photo.png', width: 900, height: 100 }, /does not fit in the 800×600 image/],
      ['crop', { path: 'photo.png', width: 10, height: 10, left: 5 }, /needs both left and top/],
      ['rotate', { path: 'photo.png' }, /needs an angle, flip or flop/],
      ['resize', { path: 'photo.png', width: 100, position: 'attention' }, /works with fit cover only/],
      // The advertised step schema is a line of text; the full one is checked on every call.
      ['resize', { path: 'photo.png', width: 100, fit: 'squash' }, /operations\[0\]\.fit: Invalid option/],
      ['resize', { path: 'photo.png', width: 0 }, /operations\[0\]\.width: Too small/],
      ['crop', { path: 'photo.png', width: 10 }, /operations\[0\]\.height: Invalid input/],
      ['blur', { path: 'photo.png' }, /operations\[0\]\.op: Invalid discriminator value\. Expected 'resize' \| 'crop'/],
    ];
    for (const [op, args, message] of rows) {
      const result = await h.call('process_image', oneStep(op, args));
      expect(result.isError, `${op} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    expect(existsSync(join(h.out, 'x.png'))).toBe(false);
  });
});

describe('image server without an output directory', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness(({ images }) => ({ directories: [images] }));
    writeFileSync(join(h.images, 'big.jpg'), await (await photo(3200, 2400)).jpeg({ quality: 95 }).toBuffer());
  });

  afterAll(async () => {
    await h.close();
  });

  it('returns the fitted image only, says the full size was not kept, and is read-only', async () => {
    const { tools } = await h.client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const result = await h.call('process_image', oneStep('adjust', { path: 'big.jpg', brightness: 1.2 }));
    const data = structured(result);
    expect(data.file).toBeUndefined();
    expect(data.result).toMatchObject({ width: 3200, height: 2400 });
    expect(data.notes?.join(' ')).toMatch(/not kept because the server has no output directory/);
    const preview = await imageOf(result);
    expect([preview.metadata.width, preview.metadata.height]).toEqual([1568, 1176]);
    expect(preview.bytes.length).toBeLessThanOrEqual(750_000);
    expect(result.content.some((block) => block.type === 'resource_link')).toBe(false);
  });

  it('lowers quality, then size, until the preview fits a small byte budget', async () => {
    const small = await startImageHarness(({ images }) => ({
      directories: [images],
      limits: { previewMaxBytes: 40_000 },
    }));
    try {
      writeFileSync(join(small.images, 'big.png'), await (await photo(2000, 1500)).png().toBuffer());
      const result = await small.call('process_image', { path: 'big.png', format: 'png' });
      const data = structured(result);
      expect(data.preview.bytes).toBeLessThanOrEqual(40_000);
      expect(data.preview.format).toBe('webp');
      expect((await imageOf(result)).bytes.length).toBeLessThanOrEqual(40_000);
    } finally {
      await small.close();
    }
  });
});
