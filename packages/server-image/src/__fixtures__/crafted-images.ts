import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A grey PNG whose header declares `width`×`height`. With `rows`, that many
 * rows of real (all-zero) pixel data follow — the whole image when rows equals
 * height, a compressed bomb; otherwise the data stops short.
 */
export function pngDeclaring(width: number, height: number, rows = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const pixels = deflateSync(Buffer.alloc((width + 1) * rows), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG with its frame header rewritten to declare `width`×`height`. */
export function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(jpeg);
  for (let at = 2; at < patched.length - 9; ) {
    if (patched[at] !== 0xff) throw new Error('not a marker');
    const marker = patched[at + 1] ?? 0;
    const length = patched.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      patched.writeUInt16BE(height, at + 5);
      patched.writeUInt16BE(width, at + 7);
      return patched;
    }
    at += 2 + length;
  }
  throw new Error('no frame header');
}

/** A real GIF with its logical screen and first image descriptor rewritten to `width`×`height`. */
export function gifDeclaring(gif: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(gif);
  patched.writeUInt16LE(width, 6);
  patched.writeUInt16LE(height, 8);
  const flags = patched[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  // Extension blocks (0x21, label, sub-blocks ending in a zero length) come before the first image descriptor.
  while (patched[at] === 0x21) {
    at += 2;
    while ((patched[at] ?? 0) !== 0) at += (patched[at] ?? 0) + 1;
    at += 1;
  }
  if (patched[at] !== 0x2c) throw new Error('no image descriptor');
  patched.writeUInt16LE(width, at + 5);
  patched.writeUInt16LE(height, at + 7);
  return patched;
}

/** A real extended WebP (VP8X) with its canvas rewritten to `width`×`height` (WebP allows at most 16383 each). */
export function webpDeclaring(webp: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(webp);
  if (patched.toString('latin1', 12, 16) !== 'VP8X') throw new Error('not an extended WebP');
  patched.writeUIntLE(width - 1, 24, 3);
  patched.writeUIntLE(height - 1, 27, 3);
  return patched;
}

/** An SVG that tries to pull a local file into the rendering. */
export const svgReadingAFile: string =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">' +
  '<image xlink:href="file:///etc/passwd" width="100" height="100"/></svg>';
