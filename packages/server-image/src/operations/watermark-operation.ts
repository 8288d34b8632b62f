import { ToolError } from '@toolshed/mcp-core';
import type { SharpOptions } from 'sharp';
import * as z from 'zod';
import type { SharpFunction } from '../load-sharp.ts';
import type { Dimensions, Operation } from './operation.ts';

export const gravities = [
  'northwest',
  'north',
  'northeast',
  'west',
  'centre',
  'east',
  'southwest',
  'south',
  'southeast',
] as const;

type Gravity = (typeof gravities)[number];

export function watermarkFields(): {
  text: z.ZodOptional<z.ZodString>;
  color: z.ZodDefault<z.ZodString>;
  gravity: z.ZodDefault<z.ZodEnum<{ [K in Gravity]: K }>>;
  opacity: z.ZodDefault<z.ZodNumber>;
  scale: z.ZodDefault<z.ZodNumber>;
  tile: z.ZodDefault<z.ZodBoolean>;
} {
  return {
    text: z.string().min(1).max(200).optional().describe('Text to stamp (plain text, up to 200 characters)'),
    color: z
      .string()
      .regex(/^(?:#[0-9a-f]{6}|[a-z]{3,20})$/i)
      .default('#ffffff')
      .describe('Text colour: #rrggbb or a colour name'),
    gravity: z.enum(gravities).default('southeast').describe('Where the mark goes; compass points or centre'),
    opacity: z.number().min(0.05).max(1).default(0.5).describe('Opacity of the mark, 0.05 to 1'),
    scale: z
      .number()
      .min(0.02)
      .max(1)
      .default(0.25)
      .describe("The mark's width as a fraction of the image's width, 0.02 to 1"),
    tile: z.boolean().default(false).describe('Repeat the mark across the whole image instead of placing it once'),
  };
}

export type WatermarkArguments = {
  text?: string | undefined;
  color: string;
  gravity: Gravity;
  opacity: number;
  scale: number;
  tile: boolean;
};

/** The mark as an image: already decoded and checked, or text to render. */
export type WatermarkMark = { kind: 'image'; bytes: Buffer; options: SharpOptions } | { kind: 'text'; text: string };

function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

async function renderMark(
  sharp: SharpFunction,
  mark: WatermarkMark,
  args: WatermarkArguments,
  base: Dimensions,
): Promise<{ data: Buffer; width: number; height: number }> {
  const width = Math.max(1, Math.round(base.width * args.scale));
  const source =
    mark.kind === 'text'
      ? sharp({
          text: {
            text: `<span foreground="${args.color}">${escapeMarkup(mark.text)}</span>`,
            font: 'sans',
            width,
            height: Math.max(1, Math.min(base.height, Math.round(width / 3))),
            rgba: true,
            wrap: 'word-char',
          },
        })
      : sharp(mark.bytes, mark.options).resize({ width, height: base.height, fit: 'inside' });
  const { data, info } = await source
    .ensureAlpha()
    .composite([
      {
        input: Buffer.from([255, 255, 255, Math.round(255 * args.opacity)]),
        raw: { width: 1, height: 1, channels: 4 },
        tile: true,
        blend: 'dest-in',
      },
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function placement(gravity: Gravity, base: Dimensions, mark: { width: number; height: number }) {
  const margin = Math.round(Math.min(base.width, base.height) * 0.02);
  const spanX = Math.max(0, base.width - mark.width);
  const spanY = Math.max(0, base.height - mark.height);
  const x = gravity.endsWith('west')
    ? Math.min(margin, spanX)
    : gravity.endsWith('east')
      ? Math.max(0, spanX - margin)
      : Math.round(spanX / 2);
  const y = gravity.startsWith('north')
    ? Math.min(margin, spanY)
    : gravity.startsWith('south')
      ? Math.max(0, spanY - margin)
      : Math.round(spanY / 2);
  return { left: x, top: y };
}

export function watermarkOperation(args: WatermarkArguments, mark: WatermarkMark | undefined): Operation {
  return {
    name: 'watermark',
    animated: false,
    plan(input) {
      if (mark === undefined) throw new ToolError('watermark needs text or an overlay image (exactly one).');
      return input;
    },
    async apply(image, input, sharp) {
      if (mark === undefined) throw new ToolError('watermark needs text or an overlay image (exactly one).');
      const rendered = await renderMark(sharp, mark, args, input);
      // The mark is cut to the image so that composite never refuses a larger overlay.
      const width = Math.min(rendered.width, input.width);
      const height = Math.min(rendered.height, input.height);
      const overlay =
        width === rendered.width && height === rendered.height
          ? rendered.data
          : await sharp(rendered.data, { raw: { width: rendered.width, height: rendered.height, channels: 4 } })
              .extract({ left: 0, top: 0, width, height })
              .raw()
              .toBuffer();
      const raw = { width, height, channels: 4 as const };
      return image.composite([
        args.tile
          ? { input: overlay, raw, tile: true }
          : { input: overlay, raw, ...placement(args.gravity, input, { width, height }) },
      ]);
    },
  };
}
