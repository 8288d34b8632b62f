/// <reference path="./libheif-js.d.ts" />
import { ToolError } from '@toolshed/mcp-core';
import type { ImageLimits } from './image-server-options.ts';
import { loadSharp } from './load-sharp.ts';

interface HeifImage {
  get_width(): number;
  get_height(): number;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: unknown) => void): void;
  free(): void;
}

interface Libheif {
  HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] };
}

let loading: Promise<Libheif> | undefined;

/**
 * libheif compiled to WebAssembly, with its WASM inside the module (libheif-js's wasm bundle), loaded on the
 * first HEIC: half a second and a few megabytes no other image needs.
 */
function loadLibheif(): Promise<Libheif> {
  loading ??= import('libheif-js/wasm-bundle.js').then(
    (loaded) => ((loaded as { default?: Libheif }).default ?? loaded) as Libheif,
  );
  return loading;
}

function display(image: HeifImage, width: number, height: number): Promise<Uint8ClampedArray> {
  const data = new Uint8ClampedArray(width * height * 4);
  return new Promise((resolve, reject) => {
    image.display({ data, width, height }, (result) => {
      if (result) resolve(data);
      else reject(new Error('HEVC decode failed'));
    });
  });
}

/**
 * Decodes a HEIC (HEVC in HEIF), which sharp's own libheif cannot, with
 * libheif-js, to RGBA handed to sharp, then to an uncompressed TIFF the
 * rest of the pipeline reads as it reads any input. The primary image's
 * size is read from its header first (libheif parses the container without
 * decoding a pixel) and held to the pixel cap; libheif applies the file's
 * rotation and mirroring as it decodes.
 */
export async function decodeHeic(bytes: Buffer, label: string, limits: ImageLimits): Promise<Buffer> {
  const libheif = await loadLibheif();
  let images: HeifImage[];
  try {
    images = new libheif.HeifDecoder().decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch {
    images = [];
  }
  try {
    const [primary] = images;
    if (primary === undefined) throw new ToolError(`${label} could not be decoded: it is not a whole HEIC image.`);
    const width = primary.get_width();
    const height = primary.get_height();
    if (!(width > 0 && height > 0)) throw new ToolError(`${label} has no pixels (${width}×${height}).`);
    if (width * height > limits.maxInputPixels) {
      throw new ToolError(
        `${label} is ${width}×${height} = ${width * height} pixels; images over ${limits.maxInputPixels} pixels are not decoded.`,
      );
    }
    let rgba: Uint8ClampedArray;
    try {
      rgba = await display(primary, width, height);
    } catch {
      throw new ToolError(`${label} could not be decoded: it is truncated or corrupt (HEVC).`);
    }
    const sharp = await loadSharp();
    return await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.length), { raw: { width, height, channels: 4 } })
      .tiff({ compression: 'none' })
      .toBuffer();
  } finally {
    for (const image of images) image.free();
  }
}
