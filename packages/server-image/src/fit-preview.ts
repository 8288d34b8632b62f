import type { OutputInfo, Sharp } from 'sharp';
import type { ImageLimits } from './image-server-options.ts';
import { encodeAs, isLossy, type OutputFormat, previewFormatFor } from './output-format.ts';

/** An encoded image and what sharp says it is. */
export interface EncodedImage {
  data: Buffer;
  format: OutputFormat;
  width: number;
  /** One frame's height. */
  height: number;
  frames: number;
}

export function encodedFrom(data: Buffer, info: OutputInfo, format: OutputFormat): EncodedImage {
  const frames = info.pages ?? 1;
  return { data, format, width: info.width, height: info.pageHeight ?? info.height / frames, frames };
}

/** Whether an encoded result can go to the model as it is. */
export function fitsPreview(image: EncodedImage, limits: ImageLimits): boolean {
  return (
    previewFormatFor(image.format) === image.format &&
    Math.max(image.width, image.height) <= limits.previewMaxEdge &&
    image.data.length <= limits.previewMaxBytes
  );
}

/**
 * The image the model sees: within the long-edge and byte budget clients
 * accept. Scaled to the edge first; then, while too many bytes, lossy
 * formats step their quality down, lossless ones switch to WebP, and last
 * the edge shrinks in proportion to the overshoot. `source` makes a fresh
 * pipeline over the full-size result each time.
 */
export async function fitPreview(
  source: () => Sharp,
  format: OutputFormat,
  limits: ImageLimits,
  timeoutSeconds: () => number,
): Promise<EncodedImage> {
  let previewFormat = previewFormatFor(format);
  let quality: number | undefined;
  let edge = limits.previewMaxEdge;
  for (let attempt = 0; ; attempt++) {
    const image = source()
      .timeout({ seconds: timeoutSeconds() })
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await encodeAs(image, previewFormat, { quality }).toBuffer({ resolveWithObject: true });
    const encoded = encodedFrom(data, info, previewFormat);
    if (data.length <= limits.previewMaxBytes || attempt >= 8 || edge <= 16) return encoded;
    if (isLossy(previewFormat) && (quality ?? 80) > 50) {
      quality = (quality ?? 80) - 15;
    } else if (!isLossy(previewFormat)) {
      previewFormat = 'webp';
      quality = 80;
    } else {
      const longEdge = Math.max(encoded.width, encoded.height);
      edge = Math.max(16, Math.floor(longEdge * Math.min(0.85, Math.sqrt(limits.previewMaxBytes / data.length))));
    }
  }
}
