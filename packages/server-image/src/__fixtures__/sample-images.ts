import sharp, { type Sharp } from 'sharp';

/** A photo-like picture: a gradient under noise, so encoders have real work and sizes are realistic. */
export async function photo(width: number, height: number): Promise<Sharp> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .raw()
    .toBuffer();
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      gradient[at] = Math.round((255 * x) / width);
      gradient[at + 1] = Math.round((255 * y) / height);
      gradient[at + 2] = 128;
    }
  }
  const mixed = Buffer.alloc(gradient.length);
  for (let index = 0; index < mixed.length; index++)
    mixed[index] = ((gradient[index] ?? 0) * 3 + (noise[index] ?? 0)) >> 2;
  return sharp(mixed, { raw: { width, height, channels: 3 } });
}

/** A JPEG as a phone stores a portrait shot: pixels landscape, EXIF orientation 6, camera fields and GPS. */
export async function sidewaysPhoneJpeg(width = 1200, height = 800): Promise<Buffer> {
  return (await photo(width, height))
    .withExif({
      IFD0: { Make: 'Toolshed', Model: 'Test Camera 1', Software: 'fixture', DateTime: '2026:01:02 03:04:05' },
      IFD2: { DateTimeOriginal: '2026:01:02 03:04:05', LensModel: 'Fixture Lens 24mm' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A PNG with a transparent border: alpha must survive what keeps it. */
export async function transparentPng(width = 640, height = 480): Promise<Buffer> {
  const inner = await (await photo(width - 80, height - 80)).png().toBuffer();
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: inner, left: 40, top: 40 }])
    .png()
    .toBuffer();
}

/** An animation of `frames` frames, each a different colour. */
export async function animation(
  frames: number,
  width = 64,
  height = 48,
  format: 'gif' | 'webp' = 'gif',
): Promise<Buffer> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, index) =>
      sharp({
        create: { width, height, channels: 3, background: { r: (index * 37) % 256, g: (index * 91) % 256, b: 200 } },
      })
        .png()
        .toBuffer(),
    ),
  );
  const joined = sharp(pages, { join: { animated: true } });
  return format === 'gif' ? joined.gif({ delay: 100 }).toBuffer() : joined.webp({ delay: 100 }).toBuffer();
}

/** The same photo in every input format the server takes. */
export async function everyFormat(width = 800, height = 600): Promise<Record<string, Buffer>> {
  const make = async () => photo(width, height);
  return {
    jpeg: await (await make()).jpeg().toBuffer(),
    png: await (await make()).png().toBuffer(),
    webp: await (await make()).webp().toBuffer(),
    avif: await (await make()).avif({ effort: 0 }).toBuffer(),
    gif: await (await make()).gif({ effort: 1 }).toBuffer(),
    tiff: await (await make()).tiff().toBuffer(),
  };
}
