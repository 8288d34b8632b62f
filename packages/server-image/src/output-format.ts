import { ToolError } from '@toolshed/mcp-core';
import type { Sharp } from 'sharp';
import * as z from 'zod';

export const outputFormats = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** The formats clients accept in an image content block. */
const previewable = new Set<OutputFormat>(['jpeg', 'png', 'webp', 'gif']);
/** Formats that can hold an animation. */
export const animatedFormats: ReadonlySet<OutputFormat> = new Set<OutputFormat>(['gif', 'webp']);
const lossy = new Set<OutputFormat>(['jpeg', 'webp', 'avif', 'tiff']);

export const mediaTypes: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
};

const extensions: Record<OutputFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
  tiff: 'tif',
};

const formatsByExtension: Record<string, OutputFormat> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
  tif: 'tiff',
  tiff: 'tiff',
};

export function extensionOf(format: OutputFormat): string {
  return extensions[format];
}

/** The output format a file name's extension names, if any. */
export function formatOfName(name: string): OutputFormat | undefined {
  const match = /\.([A-Za-z]+)$/.exec(name);
  return match === null ? undefined : formatsByExtension[(match[1] ?? '').toLowerCase()];
}

export function isLossy(format: OutputFormat): boolean {
  return lossy.has(format);
}

/** The format a preview is shown in: the result's own, or the closest one clients accept. */
export function previewFormatFor(format: OutputFormat): OutputFormat {
  if (previewable.has(format)) return format;
  return format === 'avif' ? 'webp' : 'png';
}

export interface EncodeOptions {
  quality?: number | undefined;
  lossless?: boolean | undefined;
}

/** Sets the encoder; sharp's defaults otherwise (JPEG and WebP quality 80, AVIF 50). */
export function encodeAs(image: Sharp, format: OutputFormat, options: EncodeOptions): Sharp {
  const quality = options.quality === undefined ? {} : { quality: options.quality };
  const lossless = options.lossless === true ? { lossless: true } : {};
  switch (format) {
    case 'jpeg':
      return image.jpeg(quality);
    case 'png':
      return image.png();
    case 'webp':
      return image.webp({ ...quality, ...lossless });
    case 'avif':
      return image.avif({ ...quality, ...lossless });
    case 'gif':
      return image.gif();
    case 'tiff':
      return image.tiff(quality);
  }
}

export function outputFields(): {
  format: z.ZodOptional<z.ZodEnum<{ [K in OutputFormat]: K }>>;
  quality: z.ZodOptional<z.ZodNumber>;
  lossless: z.ZodOptional<z.ZodBoolean>;
  output_name: z.ZodOptional<z.ZodString>;
} {
  return {
    // Without it the input's format is kept (or output_name's extension chooses).
    format: z.enum(outputFormats).optional(),
    quality: z.number().int().min(1).max(100).optional(),
    lossless: z.boolean().optional(),
    // Without it the file is named after the input, the steps and a digest of the result.
    output_name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('File name in the output directory; never replaces one'),
  };
}

/** The format a call asked for, directly or through output_name, checked for agreement. */
export function chosenFormat(
  format: OutputFormat | undefined,
  outputName: string | undefined,
  fallback: OutputFormat,
): OutputFormat {
  const named = outputName === undefined ? undefined : formatOfName(outputName);
  if (format !== undefined && named !== undefined && format !== named) {
    throw new ToolError(`output_name "${outputName}" says ${named} but format is ${format}; make them agree.`);
  }
  return format ?? named ?? fallback;
}

/** Which encoder settings apply, so results can say so. */
export function checkEncodeOptions(format: OutputFormat, options: EncodeOptions): void {
  if (options.lossless === true && format !== 'webp' && format !== 'avif') {
    throw new ToolError(
      `lossless applies to webp and avif; ${format} is ${isLossy(format) ? 'lossy' : 'always lossless'}.`,
    );
  }
}
