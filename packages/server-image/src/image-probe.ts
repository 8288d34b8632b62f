import { ToolError } from '@toolshed/mcp-core';
import type { Metadata, SharpOptions } from 'sharp';
import type { ImageLimits } from './image-server-options.ts';
import { loadSharp } from './load-sharp.ts';

/** What the header says, read before any pixel is decoded, and judged against the limits. */
export interface ProbedImage {
  metadata: Metadata;
  /** `jpeg`, `png`, `webp`, `gif`, `tiff`, `avif` or `heic`. */
  format: InputFormat;
  /** After EXIF orientation is applied. */
  width: number;
  /** Of one frame, after EXIF orientation is applied. */
  height: number;
  /** Frames decoded: all of an animation, else 1. */
  frames: number;
}

export type InputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif' | 'heic';

const acceptedInputs = 'JPEG, PNG, WebP, AVIF, HEIC, GIF or TIFF';

/** How sharp is told to decode an input that passed the probe. */
export function decodeOptions(probe: ProbedImage, limits: ImageLimits): SharpOptions {
  return {
    autoOrient: true,
    failOn: 'error',
    limitInputPixels: limits.maxInputPixels,
    pages: probe.frames > 1 ? -1 : 1,
    sequentialRead: true,
  };
}

function inputFormat(metadata: Metadata, label: string): InputFormat {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
    case 'tiff':
      return metadata.format;
    case 'heif':
      if (metadata.compression === 'av1') return 'avif';
      if (metadata.compression === 'hevc') return 'heic';
      throw new ToolError(
        `${label} is HEIF with ${metadata.compression} data, which is not accepted; use ${acceptedInputs}.`,
      );
    case 'svg':
      throw new ToolError(
        `${label} is SVG, which is not accepted: an SVG can make the renderer read other files. Use ${acceptedInputs}.`,
      );
    default:
      throw new ToolError(`${label} is ${metadata.format} data, which is not accepted; use ${acceptedInputs}.`);
  }
}

/** The header of an accepted format; nothing is decoded. */
export async function readHeader(bytes: Buffer, label: string): Promise<{ metadata: Metadata; format: InputFormat }> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ToolError(`${label} is not an image this server can read (${acceptedInputs}).`);
  }
  return { metadata, format: inputFormat(metadata, label) };
}

/**
 * Reads the header only and refuses what would cost too much to decode:
 * dimensions whose pixels (all frames together) exceed the cap — the
 * decompression bomb, a few kilobytes claiming gigapixels — and animations
 * with too many frames. Formats are told by their bytes, not by any name.
 */
export async function probeImage(bytes: Buffer, label: string, limits: ImageLimits): Promise<ProbedImage> {
  const { metadata, format } = await readHeader(bytes, label);
  const width = metadata.width;
  const pageHeight = metadata.pageHeight ?? metadata.height;
  const animated = (format === 'gif' || format === 'webp') && (metadata.pages ?? 1) > 1;
  const frames = animated ? (metadata.pages ?? 1) : 1;
  if (!(width > 0 && pageHeight > 0)) throw new ToolError(`${label} has no pixels (${width}×${pageHeight}).`);
  if (frames > limits.maxFrames) {
    throw new ToolError(`${label} has ${frames} frames; at most ${limits.maxFrames} are processed.`);
  }
  const pixels = width * pageHeight * frames;
  if (pixels > limits.maxInputPixels) {
    const size = `${width}×${pageHeight}${frames > 1 ? ` × ${frames} frames` : ''}`;
    throw new ToolError(
      `${label} is ${size} = ${pixels} pixels; images over ${limits.maxInputPixels} pixels are not decoded.`,
    );
  }
  const swapped = (metadata.orientation ?? 1) >= 5;
  return {
    metadata,
    format,
    width: swapped ? pageHeight : width,
    height: swapped ? width : pageHeight,
    frames,
  };
}
