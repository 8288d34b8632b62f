import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { decodeOptions, probeImage } from './image-probe.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { type ImageSourceArguments, imageSourceFields, loadImage } from './image-source.ts';
import type { WatermarkMark } from './operations/watermark-operation.ts';

export function overlayField(): z.ZodOptional<
  z.ZodObject<{
    path: z.ZodOptional<z.ZodString>;
    url: z.ZodOptional<z.ZodString>;
    data: z.ZodOptional<z.ZodString>;
  }>
> {
  return z
    .object(imageSourceFields())
    .optional()
    .describe('An image to stamp (a logo), given like the main image: exactly one of path, url or data');
}

/** The mark a watermark stamps: text, or an overlay image read and checked like any input. */
export async function loadWatermarkMark(
  args: { text?: string | undefined; overlay?: ImageSourceArguments | undefined },
  context: ImageServerContext,
  signal: AbortSignal,
): Promise<WatermarkMark> {
  if ((args.text === undefined) === (args.overlay === undefined)) {
    throw new ToolError('A watermark needs exactly one of text or overlay.');
  }
  if (args.overlay === undefined) return { kind: 'text', text: args.text ?? '' };
  const overlay = await loadImage(args.overlay, context, signal, 'the overlay');
  const probe = await probeImage(overlay.bytes, `The overlay ${overlay.label}`, context.limits);
  return { kind: 'image', bytes: overlay.bytes, options: { ...decodeOptions(probe, context.limits), pages: 1 } };
}
