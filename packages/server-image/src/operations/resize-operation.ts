import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { SharpFunction } from '../load-sharp.ts';
import { checkOutputSize, colourPattern, type Dimensions, type Operation } from './operation.ts';

export const fitModes = ['inside', 'cover', 'contain', 'fill', 'outside'] as const;
export const positions = ['centre', 'top', 'bottom', 'left', 'right', 'attention', 'entropy'] as const;

export function resizeFields(): {
  width: z.ZodOptional<z.ZodNumber>;
  height: z.ZodOptional<z.ZodNumber>;
  fit: z.ZodDefault<z.ZodEnum<{ [K in (typeof fitModes)[number]]: K }>>;
  position: z.ZodDefault<z.ZodEnum<{ [K in (typeof positions)[number]]: K }>>;
  allow_enlargement: z.ZodDefault<z.ZodBoolean>;
  background: z.ZodDefault<z.ZodString>;
} {
  return {
    width: z.number().int().min(1).max(65_535).optional().describe('Target width in pixels'),
    height: z.number().int().min(1).max(65_535).optional().describe('Target height in pixels'),
    fit: z
      .enum(fitModes)
      .default('inside')
      .describe(
        'With both width and height: inside = fit within, keep aspect (default); cover = fill the box, cut the rest; ' +
          'contain = fit within, pad with background; fill = stretch; outside = cover the box without cutting',
      ),
    position: z
      .enum(positions)
      .default('centre')
      .describe('What cover and contain keep or align: an edge, centre, or attention/entropy (the busiest region)'),
    allow_enlargement: z
      .boolean()
      .default(false)
      .describe('Scale up when the image is smaller than the target; by default it is left at its size'),
    background: z
      .string()
      .regex(colourPattern)
      .default('#ffffff')
      .describe('Padding colour for contain, as CSS: #rrggbb, #rrggbbaa, a name'),
  };
}

export type ResizeArguments = {
  width?: number | undefined;
  height?: number | undefined;
  fit: (typeof fitModes)[number];
  position: (typeof positions)[number];
  allow_enlargement: boolean;
  background: string;
};

/** The size sharp will produce, by its rules for each fit. */
export function resizedSize(input: Dimensions, args: ResizeArguments): Dimensions {
  const { width, height } = input;
  let target: { width: number; height: number };
  if (args.width !== undefined && args.height !== undefined) {
    const scaleX = args.width / width;
    const scaleY = args.height / height;
    if (args.fit === 'inside' || args.fit === 'outside') {
      const scale = args.fit === 'inside' ? Math.min(scaleX, scaleY) : Math.max(scaleX, scaleY);
      target = { width: Math.round(width * scale), height: Math.round(height * scale) };
    } else {
      target = { width: args.width, height: args.height };
    }
  } else if (args.width !== undefined) {
    target = { width: args.width, height: Math.round((height * args.width) / width) };
  } else {
    const h = args.height ?? height;
    target = { width: Math.round((width * h) / height), height: h };
  }
  if (!args.allow_enlargement && (target.width > width || target.height > height)) {
    // sharp keeps the image as it is rather than scaling it up.
    if (args.fit === 'inside' || args.fit === 'outside' || args.width === undefined || args.height === undefined) {
      return input;
    }
    return { ...input, width: Math.min(target.width, width), height: Math.min(target.height, height) };
  }
  return { ...input, width: Math.max(1, target.width), height: Math.max(1, target.height) };
}

function sharpPosition(sharp: SharpFunction, position: ResizeArguments['position']): string | number {
  if (position === 'attention') return sharp.strategy.attention;
  if (position === 'entropy') return sharp.strategy.entropy;
  return position;
}

export function resizeOperation(args: ResizeArguments, name = 'resize'): Operation {
  const smart = args.position === 'attention' || args.position === 'entropy';
  return {
    name,
    // sharp's strategies look at one frame only.
    animated: !smart,
    plan(input, limits) {
      if (args.width === undefined && args.height === undefined) {
        throw new ToolError(`${name} needs a width, a height, or both.`);
      }
      if (smart && args.fit !== 'cover') {
        throw new ToolError(`position ${args.position} works with fit cover only.`);
      }
      return checkOutputSize(name, resizedSize(input, args), limits);
    },
    apply(image, _input, sharp) {
      return image.resize({
        width: args.width,
        height: args.height,
        fit: args.fit,
        position: sharpPosition(sharp, args.position),
        withoutEnlargement: !args.allow_enlargement,
        background: args.background,
      });
    },
  };
}
